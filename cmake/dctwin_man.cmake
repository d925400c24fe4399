# dctwin_man.cmake: the man page dctwin.1 from the program's --help, by Debian's help2man.
# Run as a script at build time (cmake -P) with DCTWIN (the built program), OUTPUT (dctwin.1) and
# HELP2MAN; each subcommand's --help goes into a SUBCOMMANDS section (help2man --include).
set(subcommands run check schema sweep merge report outputs export)
set(include_file ${OUTPUT}.include)
set(text "[DESCRIPTION]\ndctwin simulates liquid-cooled AI data centers: coolant loops, CDUs, cold plates, facility water, every GPU and its jobs, and the power chain, and writes HDF5 results (docs/results.md).\n\n[SUBCOMMANDS]\n")
foreach(sub IN LISTS subcommands)
  execute_process(COMMAND ${DCTWIN} ${sub} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${DCTWIN} ${sub} --help failed (${rc})")
  endif()
  # the program by its name, not the build tree's path
  string(REPLACE "${DCTWIN}" "dctwin" help "${help}")
  # roff: a leading dot or quote would be a request; backslashes escaped
  string(REPLACE "\\" "\\\\" help "${help}")
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" help "${help}")
  string(APPEND text ".SS \"dctwin ${sub}\"\n.nf\n${help}\n.fi\n")
endforeach()
string(APPEND text "\n[FILES]\n.TP\n.I share/dctwin/data\ncatalog, facilities, scenarios, sweeps (or DCTWIN_DATA)\n\n[SEE ALSO]\nREADME.md and docs/ in share/doc/dctwin\n")
file(WRITE ${include_file} "${text}")
execute_process(
  COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section 1
          "--name=digital twin of liquid-cooled AI data centers" --include ${include_file}
          --output ${OUTPUT} ${DCTWIN}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed (${rc})")
endif()
