package io.chiplet.jmh.trino;

import io.chiplet.jmh.tpch.ResultFingerprints.Fingerprint;
import io.chiplet.jmh.trino.BenchServerProtocol.Failure;
import io.chiplet.jmh.trino.BenchServerProtocol.Placement;
import io.chiplet.jmh.trino.BenchServerProtocol.Ready;
import io.chiplet.jmh.trino.BenchServerProtocol.Result;
import io.chiplet.jmh.trino.BenchServerProtocol.Status;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchServerProtocolTest
{
    @Test
    void everyReplyReadsBackAsItWasWritten()
    {
        Placement placement = new Placement(true, "auto", "sysfs:/", 14, "");
        for (BenchServerProtocol.Reply reply : new BenchServerProtocol.Reply[] {
                new Ready(Map.of("task_concurrency", "2", "max_hash_partition_count", "100"), Optional.of(placement)),
                new Ready(Map.of("task_concurrency", "2"), Optional.empty()),
                new Result(13, 9_876_543_210L, new Fingerprint(42, -7_345_678_901_234L)),
                new Status(Optional.of(new Placement(false, "auto", "sysfs:/", 0, "placing query threads failed: boom"))),
                new Status(Optional.empty()),
                new Failure("the plugin-on server failed: java.lang.IllegalStateException: no worker")}) {
            String line = BenchServerProtocol.encode(reply);

            assertThat(line).startsWith(BenchServerProtocol.PREFIX).doesNotContain("\n");
            assertThat(BenchServerProtocol.decode(line)).contains(reply);
        }
    }

    @Test
    void aMessageStaysOneFieldOnOneLine()
    {
        String line = BenchServerProtocol.encode(new Failure("first line\n\tsecond line"));

        assertThat(BenchServerProtocol.decode(line)).contains(new Failure("first line second line"));
    }

    @Test
    void linesThatAreNotOursAreSkippedAndBrokenOnesNamed()
    {
        assertThat(BenchServerProtocol.decode("2026-11-23T17:03:23.046Z INFO main io.airlift.log.Logging Logging to stderr")).isEmpty();
        assertThat(BenchServerProtocol.decode("")).isEmpty();

        assertThatThrownBy(() -> BenchServerProtocol.decode(BenchServerProtocol.PREFIX + "result\t13\tsoon"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot read the benchmark server's reply")
                .hasMessageContaining("result\t13\tsoon");
        assertThatThrownBy(() -> BenchServerProtocol.decode(BenchServerProtocol.PREFIX + "hello"))
                .hasMessageContaining("unknown reply hello");
    }

    @Test
    void aQueryCommandNamesTheQuery()
    {
        assertThat(BenchServerProtocol.queryCommand(21)).isEqualTo("query 21");
    }
}
