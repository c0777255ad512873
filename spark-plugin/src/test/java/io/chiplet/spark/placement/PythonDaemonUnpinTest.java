package io.chiplet.spark.placement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The daemon module's per-task placement, run in a real Python: a reused worker that served a placed task (its JVM
 * thread's CPUs in the task property) goes back to the executor's CPUs when its next task is control (no property,
 * as {@link PythonWorkerPlacement#onTaskStart} leaves it for a task the placement was not called for). Spark's
 * {@code TaskContext} is a stub here; the worker's mask is the real one ({@code os.sched_getaffinity}).
 */
class PythonDaemonUnpinTest
{
    private static final String SCRIPT = """
            import importlib.util, os, sys, types
            base = os.sched_getaffinity(0)
            if len(base) < 2:
                print("SKIP one CPU")
                sys.exit(0)
            properties = {}
            class Context:
                def getLocalProperty(self, key):
                    return properties.get(key)
            class TaskContext:
                @staticmethod
                def get():
                    return Context()
            sys.modules["pyspark"] = types.ModuleType("pyspark")
            taskcontext = types.ModuleType("pyspark.taskcontext")
            taskcontext.TaskContext = TaskContext
            sys.modules["pyspark.taskcontext"] = taskcontext
            spec = importlib.util.spec_from_file_location("chiplet_pyspark_daemon", sys.argv[1])
            daemon = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(daemon)
            daemon._base = set(base)
            first = min(base)
            properties["spark.chiplet.task.cpus"] = str(first)
            daemon.place()
            print("placed", sorted(os.sched_getaffinity(0)))
            properties.clear()
            daemon.place()
            print("control", sorted(os.sched_getaffinity(0)))
            print("base", sorted(base))
            """;

    @Test
    void aWorkerPinnedByAPlacedTaskGoesBackToTheExecutorsCpusForAControlTask(@TempDir Path dir)
            throws Exception
    {
        Path module = dir.resolve("chiplet_pyspark_daemon.py");
        try (InputStream in = PythonWorkerPlacement.class.getResourceAsStream("python/chiplet_pyspark_daemon.py")) {
            Files.copy(in, module);
        }
        Path script = Files.writeString(dir.resolve("unpin.py"), SCRIPT);
        Process python;
        try {
            python = new ProcessBuilder("python3", script.toString(), module.toString()).redirectErrorStream(true).start();
        }
        catch (java.io.IOException e) {
            assumeTrue(false, "no python3 on this machine: " + e);
            return;
        }
        assertThat(python.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(!out.startsWith("SKIP"), "needs a process allowed at least two CPUs");
        assertThat(python.exitValue()).as(out).isZero();
        String base = out.lines().filter(line -> line.startsWith("base ")).findFirst().orElseThrow().substring(5);
        String first = base.substring(1, base.indexOf(base.contains(",") ? ',' : ']'));
        assertThat(out).contains("placed [" + first + "]");
        assertThat(out).doesNotContain("chiplet: Python worker");
        assertThat(out.lines().filter(line -> line.startsWith("control ")).findFirst().orElseThrow()).isEqualTo("control " + base);
    }
}
