package io.chiplet.it;

import io.chiplet.it.SparkSubmit.Cell;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Spark 3.5 on Scala 2.13, which no pip pyspark is (pyspark 3.5 ships Scala 2.12): the History Server of
 * {@code org.apache.spark:spark-core_2.13} {@value #SPARK} from Maven Central, its class path resolved by Maven under
 * Spark's own dependency management (the versions Spark's distribution ships), started on JDK 17 with the plugin's jar
 * (built against Spark 4 on Scala 2.13) on its class path, over the event log of the Spark 3.5 PySpark run
 * ({@link EventLogRuns}; event logs are JSON, the same whatever Scala wrote them). The Chiplet tab is checked in
 * headless Chromium: the History Server plugin loaded, its listener replayed the plugin's events, and the tab attached
 * through Spark 3.5's {@code javax.servlet}.
 */
class HistoryServerScala213Test
{
    static final String SPARK = "3.5.9";

    @Test
    void theHistoryServerOfSpark35OnScala213ShowsTheChipletTab()
            throws Exception
    {
        HeadlessBrowser.require();
        Path jdk = Jdks.require(17);
        Cell cell = Cell.configured().stream().filter(configured -> configured.pyspark().startsWith("3.5")).findFirst().orElse(null);
        assumeTrue(cell != null, "no Spark 3.5 cell in -Dchiplet.it.sparkCells: no Spark 3.5 event log to replay");
        EventLogRuns run = EventLogRuns.of(cell);
        Path directory = Files.createDirectories(run.directory().resolve("history-scala-2.13"));
        List<String> classPath = new ArrayList<>(sparkCore213(directory));
        assertThat(classPath).anyMatch(jar -> jar.endsWith("spark-core_2.13-" + SPARK + ".jar")).anyMatch(jar -> jar.contains("scala-library-2.13."))
                .noneMatch(jar -> jar.contains("_2.12"));
        classPath.add(ProbeJar.pluginJar().toString());

        int port = EventLogRuns.freePort();
        List<String> command = new ArrayList<>(List.of(jdk.resolve("bin/java").toString()));
        // The module options Spark's launcher gives every JVM on JDK 17 (JavaModuleOptions).
        for (String opened : List.of("java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net", "java.nio", "java.util", "java.util.concurrent",
                "java.util.concurrent.atomic", "sun.nio.ch", "sun.nio.cs", "sun.security.action", "sun.util.calendar")) {
            command.add("--add-opens=java.base/" + opened + "=ALL-UNNAMED");
        }
        command.addAll(List.of("-cp", String.join(java.io.File.pathSeparator, classPath),
                "-Dspark.history.fs.logDirectory=" + run.eventLogDir().toUri(), "-Dspark.history.ui.port=" + port, "-Dspark.history.fs.update.interval=1s",
                "-Dspark.ui.bindAddress=127.0.0.1", "org.apache.spark.deploy.history.HistoryServer"));
        Path log = directory.resolve("history-server.log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(key -> key.startsWith("SPARK_") || key.equals("CLASSPATH"));
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process server = builder.start();
        try {
            String id = run.applicationLog().getFileName().toString().replaceFirst("^eventlog_v2_", "").replaceFirst("\\..*$", "");
            SparkChipletTabTest.awaitListed(port, id, directory);
            Path png = Path.of("target", "screenshots").toAbsolutePath().resolve("history-chiplet-" + SPARK + "-scala-2.13.png");
            String dom = HeadlessBrowser.screenshot("http://127.0.0.1:" + port + "/history/" + id + "/chiplet/", png, 1100, 1400);
            assertThat(dom).as("Spark %s (Scala 2.13) History Server page; its log: %s", SPARK, log).contains("Chiplet report").contains("chiplet-eventlog-job")
                    .contains("the event log, replayed by the History Server").contains("<svg").contains("data-executor=\"0\"").contains("Tasks per stage");
            if (Boolean.getBoolean("chiplet.it.updateDocsImages")) {
                java.nio.file.Files.copy(png, Files.createDirectories(Path.of("..", "docs", "images")).resolve("history-server-chiplet-tab-spark35-scala213.png"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            String jobs = HeadlessBrowser.screenshot("http://127.0.0.1:" + port + "/history/" + id + "/jobs/", png.resolveSibling("history-jobs-" + SPARK + "-scala-2.13.png"), 1100, 700);
            assertThat(jobs).contains("/history/" + id + "/chiplet/").contains(">Chiplet<");
            // The server is the Spark it should be (its class path held Scala 2.13 only, checked above).
            java.net.http.HttpResponse<String> version = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/api/v1/version")).timeout(java.time.Duration.ofSeconds(20)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(version.body()).contains("\"spark\" : \"" + SPARK + "\"");
        }
        finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
        // No part of ours failed there (each failure of ours logs one warning naming what it switched off).
        assertThat(Files.readString(log)).doesNotContain("Chiplet tab").doesNotContain("NoSuchMethodError").doesNotContain("NoClassDefFoundError");
    }

    /** spark-core_2.13's class path as Spark's own build pins its dependencies (spark-parent imported), resolved by Maven. */
    private static List<String> sparkCore213(Path directory)
            throws IOException, InterruptedException
    {
        Path pom = Files.writeString(directory.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>io.chiplet.it</groupId>
                  <artifactId>spark-core-2.13-class-path</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <dependencyManagement>
                    <dependencies>
                      <dependency>
                        <groupId>org.apache.spark</groupId>
                        <artifactId>spark-parent_2.13</artifactId>
                        <version>%1$s</version>
                        <type>pom</type>
                        <scope>import</scope>
                      </dependency>
                    </dependencies>
                  </dependencyManagement>
                  <dependencies>
                    <dependency>
                      <groupId>org.apache.spark</groupId>
                      <artifactId>spark-core_2.13</artifactId>
                      <version>%1$s</version>
                    </dependency>
                  </dependencies>
                </project>
                """.formatted(SPARK));
        Path out = directory.resolve("class-path.txt");
        Path mvnw = Path.of("..", "mvnw").toAbsolutePath().normalize();
        Path mavenLog = directory.resolve("maven.log");
        Process maven = new ProcessBuilder(mvnw.toString(), "-B", "-q", "-f", pom.toString(), "dependency:build-classpath", "-Dmdep.outputFile=" + out)
                .directory(mvnw.getParent().toFile()).redirectErrorStream(true).redirectOutput(mavenLog.toFile()).start();
        assertThat(maven.waitFor(10, TimeUnit.MINUTES)).as("Maven resolved spark-core_2.13 %s within 10 minutes; %s", SPARK, mavenLog).isTrue();
        assertThat(maven.exitValue()).as("Maven resolving spark-core_2.13 %s: %s", SPARK, Files.readString(mavenLog)).isZero();
        return List.of(Files.readString(out).strip().split(java.io.File.pathSeparator));
    }
}
