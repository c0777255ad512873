package io.chiplet.it;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Stops the processes a test started and everything they started, forcibly after a grace period. */
final class ProcessTrees
{
    private ProcessTrees() {}

    /** Latest first, each one's descendants before it: a Worker killed before its executors would orphan them. */
    static void stop(List<Process> started)
    {
        List<ProcessHandle> all = new ArrayList<>();
        for (Process process : started.reversed()) {
            process.descendants().forEach(all::add);
            all.add(process.toHandle());
        }
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle handle : all) {
            try {
                handle.onExit().get(10, TimeUnit.SECONDS);
            }
            catch (Exception e) {
                handle.destroyForcibly();
            }
        }
    }
}
