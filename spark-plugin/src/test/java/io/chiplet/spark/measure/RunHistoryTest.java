package io.chiplet.spark.measure;

import io.chiplet.measure.RunRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

class RunHistoryTest
{
    @Test
    void concurrentAppendsKeepEveryLineWhole(@TempDir Path directory)
            throws Exception
    {
        RunHistory history = RunHistory.open(directory, new StringBuilder()).orElseThrow();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<Future<?>> done = new ArrayList<>();
        for (int writer = 0; writer < 8; writer++) {
            int id = writer;
            done.add(threads.submit(() -> {
                for (int run = 0; run < 25; run++) {
                    history.append(run("key " + id, id * 100 + run));
                }
                return null;
            }));
        }
        for (Future<?> future : done) {
            future.get();
        }
        threads.shutdown();

        RunHistory.Read read = history.read();
        assertThat(read.skipped()).isZero();
        assertThat(read.runs()).hasSize(200);
        assertThat(read.runs().stream().filter(run -> run.key().equals("key 3"))).hasSize(25);
    }

    @Test
    void aHalfWrittenLineIsSkippedAndTheNextAppendStaysWhole(@TempDir Path directory)
            throws IOException
    {
        RunHistory history = RunHistory.open(directory, new StringBuilder()).orElseThrow();
        history.append(run("etl", 1));
        String whole = Files.readString(history.file());
        // A driver killed mid-write, then garbage.
        Files.writeString(history.file(), whole + whole.substring(0, whole.length() / 2));
        history.append(run("etl", 2));
        Files.writeString(history.file(), Files.readString(history.file()) + "\u0000\u00ff garbage\n");

        RunHistory.Read read = history.read();
        assertThat(read.runs()).extracting(RunRecord::seed).containsExactly(1L, 2L);
        assertThat(read.skipped()).isEqualTo(2);
    }

    @Test
    void aDirectoryThatCannotBeMadeIsSaidAndTheDefaultFollowsXdg(@TempDir Path directory)
            throws IOException
    {
        Path file = Files.writeString(directory.resolve("a-file"), "x");
        StringBuilder problem = new StringBuilder();
        assertThat(RunHistory.open(file.resolve("history"), problem)).isEmpty();
        assertThat(problem.toString()).contains(file.resolve("history").toString());

        assertThat(RunHistory.defaultDirectory(Map.of("XDG_STATE_HOME", "/var/state"), "/home/u")).isEqualTo(Path.of("/var/state/chiplet"));
        assertThat(RunHistory.defaultDirectory(Map.of("XDG_STATE_HOME", "relative"), "/home/u")).isEqualTo(Path.of("/home/u/.local/state/chiplet"));
        assertThat(RunHistory.defaultDirectory(Map.of(), "/home/u")).isEqualTo(Path.of("/home/u/.local/state/chiplet"));
    }

    private static RunRecord run(String key, long seed)
    {
        return new RunRecord(key, "app-" + seed, Instant.ofEpochSecond(1_800_000_000L + seed), seed, -0.05, 0.02, 10, 5, 5);
    }
}
