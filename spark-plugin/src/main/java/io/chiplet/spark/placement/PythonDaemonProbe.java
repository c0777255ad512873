package io.chiplet.spark.placement;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Proves that Python can run our daemon module from a directory, in an environment: {@code python -m <module> --probe}
 * there, which imports the module and Spark's {@code pyspark.daemon} and prints {@link #OK}. A proof by running what
 * Spark will run, not by reasoning about {@code sys.path}: it covers {@code PYTHONSAFEPATH}, a user's
 * {@code PYTHONPATH}, a Python without PySpark, a shadowing module of the same name.
 */
@FunctionalInterface
public interface PythonDaemonProbe
{
    String OK = "chiplet-pyspark-daemon-ok";

    /** Empty when proven; else why not, for the log. */
    Optional<String> refute(String python, String module, Path directory, Map<String, String> environment);

    /** Runs the probe as a process, for at most {@code timeoutSeconds}. */
    static PythonDaemonProbe process(long timeoutSeconds)
    {
        return (python, module, directory, environment) -> {
            requireNonNull(directory, "directory is null");
            List<String> command = List.of(python, "-m", module, "--probe");
            ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(directory.toFile()).redirectErrorStream(true);
            builder.environment().putAll(environment);
            try {
                Process process = builder.start();
                process.getOutputStream().close();
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    return Optional.of("'" + String.join(" ", command) + "' did not finish in " + timeoutSeconds + " s");
                }
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                if (process.exitValue() == 0 && output.lines().anyMatch(OK::equals)) {
                    return Optional.empty();
                }
                String last = output.lines().reduce((first, second) -> second).orElse("no output");
                return Optional.of("'" + String.join(" ", command) + "' in " + directory + " exited with " + process.exitValue() + ": " + last);
            }
            catch (IOException e) {
                return Optional.of("cannot run " + python + ": " + e.getMessage());
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted while probing " + python);
            }
        };
    }
}
