// workload_reader.h: the facility file's described training jobs (jobs[].workload) and fabric
// section (docs/models/job.md, docs/models/fabric.md); called by the facility loader
#pragma once

#include "models/fabric.h"
#include "solver/input/spec.h"
#include "solver/input/yaml_reader.h"

namespace dctwin {

// jobs[].workload, on_failure, restart_time, hot_spares of one job map
void readJobWorkload(reader::MapIn& job, JobSpec& j);
// a 'workload' map itself (a facility job's, or an estimate case's: docs/models/job.md)
void readWorkload(reader::MapIn& workload, JobSpec& j);
// the top-level 'fabric' map
void readFabric(reader::MapIn& fabric, FabricSpec& f);
// the top-level 'host_memory' map (models/host_memory.h)
void readHostMemory(reader::MapIn& host, HostMemorySpec& h);

// `gpu_memory: {capacity, bandwidth}` under `parent` (a rack type, an estimate case): the GPUs'
// HBM as fitted; each left as it was when absent                                   (B, B/s)
void readGpuMemory(reader::MapIn& parent, double& capacity, double& bandwidth);

}  // namespace dctwin
