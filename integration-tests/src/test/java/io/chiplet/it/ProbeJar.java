package io.chiplet.it;

import io.chiplet.it.probe.Probe;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The probe application ({@link Probe}) as a jar of Java 17 class files: compiled here from its source with
 * {@code --release 17} against the test class path's Spark, so one jar runs on every Spark and JDK of the matrix.
 */
final class ProbeJar
{
    private static Path built;

    private ProbeJar() {}

    static synchronized Path get()
            throws IOException
    {
        if (built != null) {
            return built;
        }
        Path source = Path.of(System.getProperty("chiplet.it.testSources", "src/test/java"), "io/chiplet/it/probe/Probe.java");
        if (!Files.isRegularFile(source)) {
            throw new IllegalStateException("probe source " + source.toAbsolutePath() + " not found (set -Dchiplet.it.testSources to integration-tests/src/test/java)");
        }
        Path work = Files.createDirectories(Path.of("target", "probe"));
        Path classes = Files.createDirectories(work.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        int status = javac.run(null, diagnostics, diagnostics, "--release", "17", "-proc:none", "-classpath", classPath, "-d", classes.toString(), source.toString());
        if (status != 0) {
            throw new IllegalStateException("javac --release 17 " + source + " failed:\n" + diagnostics.toString(StandardCharsets.UTF_8));
        }
        Path jar = work.resolve("chiplet-probe.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file); Stream<Path> files = Files.walk(classes)) {
            for (Path classFile : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(classFile).toString()));
                out.write(Files.readAllBytes(classFile));
                out.closeEntry();
            }
        }
        built = jar.toAbsolutePath();
        return built;
    }

    static String mainClass()
    {
        return Probe.class.getName();
    }

    /** The shaded plugin jar ({@code chiplet-spark-plugin-<version>-all.jar}) that users pass with --jars. */
    static Path pluginJar()
    {
        Path jar = Path.of(System.getProperty("chiplet.it.pluginJar", "target/it-jars/chiplet-spark-plugin-all.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the shaded plugin jar " + jar.toAbsolutePath() + " is missing: build spark-plugin first (./mvnw -pl spark-plugin,integration-tests verify)");
        }
        return jar.toAbsolutePath();
    }
}
