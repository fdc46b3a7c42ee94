#!/usr/bin/env bash
# Regenerates the lab's JFR settings with the JDK's own tool (edit this script, not the .jfc files):
#   jfr/threads.jfc                    what the runner and compose record with: sockets from 1 ms
#   jfr/threads-every-socket-event.jfc the same with every socket read and write (0 ms), for looking closer
# Needs a JDK 21+ `jfr` (found like ./mvnw finds its JDK).
set -euo pipefail
cd "$(dirname "$0")"
source ../scripts/find-jdk.sh
find_jdk
jfr="$JAVA_HOME/bin/jfr"

# Only the events the thread analysis reads, starting from an empty configuration: each event costs CPU under a
# 0.5-CPU quota, and JDK 'profile' settings add many the analysis never opens.
common=(
  # Which settings were in force, so that the analysis can tell "no such event" from "not recorded".
  '+jdk.ActiveSetting#enabled=true'
  '+jdk.ExecutionSample#enabled=true' '+jdk.ExecutionSample#period=20ms'
  '+jdk.NativeMethodSample#enabled=true' '+jdk.NativeMethodSample#period=20ms'
  '+jdk.ThreadPark#enabled=true' '+jdk.ThreadPark#threshold=1ms' '+jdk.ThreadPark#stackTrace=true'
  '+jdk.JavaMonitorEnter#enabled=true' '+jdk.JavaMonitorEnter#threshold=1ms' '+jdk.JavaMonitorEnter#stackTrace=true'
  '+jdk.JavaMonitorWait#enabled=true' '+jdk.JavaMonitorWait#threshold=1ms' '+jdk.JavaMonitorWait#stackTrace=true'
  # Off by default; a parked virtual thread emits nothing else, so these are how the analysis sees them at all.
  '+jdk.VirtualThreadStart#enabled=true' '+jdk.VirtualThreadStart#stackTrace=false'
  '+jdk.VirtualThreadEnd#enabled=true'
  '+jdk.VirtualThreadPinned#enabled=true' '+jdk.VirtualThreadPinned#threshold=0ms' '+jdk.VirtualThreadPinned#stackTrace=true'
  '+jdk.VirtualThreadSubmitFailed#enabled=true' '+jdk.VirtualThreadSubmitFailed#stackTrace=true'
  # Per second, so that a 10 s window holds several samples of CPU and throttling.
  '+jdk.ThreadCPULoad#enabled=true' '+jdk.ThreadCPULoad#period=1s'
  '+jdk.CPULoad#enabled=true' '+jdk.CPULoad#period=1s'
  '+jdk.ContainerCPUThrottling#enabled=true' '+jdk.ContainerCPUThrottling#period=1s'
  '+jdk.ContainerCPUUsage#enabled=true' '+jdk.ContainerCPUUsage#period=1s'
  '+jdk.ContainerConfiguration#enabled=true' '+jdk.ContainerConfiguration#period=beginChunk'
  '+jdk.CPUInformation#enabled=true' '+jdk.CPUInformation#period=beginChunk'
  '+jdk.IntFlag#enabled=true' '+jdk.IntFlag#period=beginChunk'
  '+jdk.GarbageCollection#enabled=true' '+jdk.GCCPUTime#enabled=true'
  # What JDK Mission Control's rules need to judge the collector (GC pauses, halts, stalls, options) and context
  # switches: a few events per collection, or once a chunk, or a second; without them those rules are "not applicable".
  '+jdk.GCPhasePause#enabled=true' '+jdk.GCPhasePauseLevel1#enabled=true'
  '+jdk.GCConfiguration#enabled=true' '+jdk.GCConfiguration#period=beginChunk'
  '+jdk.GCHeapConfiguration#enabled=true' '+jdk.GCHeapConfiguration#period=beginChunk'
  '+jdk.ExecuteVMOperation#enabled=true' '+jdk.ExecuteVMOperation#threshold=1ms'
  '+jdk.ThreadContextSwitchRate#enabled=true' '+jdk.ThreadContextSwitchRate#period=1s'
  '+jdk.JVMInformation#enabled=true' '+jdk.JVMInformation#period=beginChunk'
  '+jdk.BooleanFlag#enabled=true' '+jdk.BooleanFlag#period=beginChunk'
  '+jdk.UnsignedLongFlag#enabled=true' '+jdk.UnsignedLongFlag#period=beginChunk'
  # No rate throttle, so that counts are counts; no stack traces: the thread and the port say enough, and a stack
  # per read was the costliest setting measured.
  '+jdk.SocketRead#enabled=true' '+jdk.SocketRead#throttle=off' '+jdk.SocketRead#stackTrace=false'
  '+jdk.SocketWrite#enabled=true' '+jdk.SocketWrite#throttle=off' '+jdk.SocketWrite#stackTrace=false'
)
"$jfr" configure --input none --output threads.jfc "${common[@]}" \
  '+jdk.SocketRead#threshold=1ms' '+jdk.SocketWrite#threshold=1ms'
"$jfr" configure --input none --output threads-every-socket-event.jfc "${common[@]}" \
  '+jdk.SocketRead#threshold=0ms' '+jdk.SocketWrite#threshold=0ms'
