#!/usr/bin/env python3
"""Validate YAML input files against the JSON Schemas of docs/schema/ (dctwin schema).

usage: validate_schemas.py SCHEMA_DIR KIND=FILE... (KIND: facility, scenario, sweep)

YAML is read as YAML 1.2 reads numbers (1e-6 is a float, as in yaml-language-server and
yaml-cpp); PyYAML's default resolver follows YAML 1.1, which reads it as a string.
Exit status 1 when any file does not validate, with one line per problem.
"""
import json
import re
import sys

import jsonschema
import yaml


class Yaml12Loader(yaml.SafeLoader):
    pass


# YAML 1.2 core-schema floats (the 1.1 resolver needs a dot: 1e-6 would be a string)
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"""^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?
                 |[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$""", re.X),
    list("-+0123456789."))


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema_dir = argv[1]
    bad = 0
    for arg in argv[2:]:
        kind, path = arg.split("=", 1)
        with open(f"{schema_dir}/{kind}.schema.json", encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft7Validator.check_schema(schema)
        with open(path, encoding="utf-8") as f:
            doc = yaml.load(f, Loader=Yaml12Loader)
        errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
        for e in errors:
            where = ".".join(str(p) for p in e.path) or "(top)"
            print(f"{path}: {where}: {e.message}")
            bad += 1
        if not errors:
            print(f"{path}: ok ({kind})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
