package io.chiplet.jmh.tpch;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TpchBenchArgumentsTest
{
    @Test
    void defaultsAreAll22QueriesAtScaleFactor1In3Rounds()
    {
        assertThat(TpchBenchArguments.parse(new String[0], "--trino-tpch-sf"))
                .isEqualTo(new TpchBenchArguments(1, 3, 1, TpchBenchArguments.allQueries(), Path.of(""), true));
        assertThat(TpchBenchArguments.allQueries()).hasSize(22).startsWith(1, 2).endsWith(22);
    }

    @Test
    void takesTheScaleFactorUnderTheLaunchersNameToo()
    {
        TpchBenchArguments arguments = TpchBenchArguments.parse(
                new String[] {"--trino-tpch-sf", "0.01", "--rounds", "1", "--queries", "1, 6", "--root", "/tmp/r", "--no-report"}, "--trino-tpch-sf");

        assertThat(arguments).isEqualTo(new TpchBenchArguments(0.01, 1, 1, List.of(1, 6), Path.of("/tmp/r"), false));
        assertThat(arguments.scale()).isEqualTo("0.01");
        assertThat(TpchBenchArguments.parse(new String[] {"--scale-factor", "10"}, "--trino-tpch-sf").scale()).isEqualTo("10");
        // Another engine's name is not this benchmark's.
        assertThatThrownBy(() -> TpchBenchArguments.parse(new String[] {"--tpch-sf", "1"}, "--trino-tpch-sf"))
                .hasMessage("unknown option --tpch-sf; expected --trino-tpch-sf SF (or --scale-factor SF), --rounds N, --forks F, --queries 1,3,..., --root DIR, --no-report");
    }

    @Test
    void rejectsBadValuesNamingTheOption()
    {
        // named as the user wrote it, value as typed
        assertThatThrownBy(() -> parse("--tpch-sf", "0")).hasMessage("--tpch-sf 0: expected a positive number up to 100");
        assertThatThrownBy(() -> parse("--tpch-sf", "NaN")).hasMessage("--tpch-sf NaN: expected a positive number up to 100");
        assertThatThrownBy(() -> parse("--scale-factor", "101")).hasMessage("--scale-factor 101: expected a positive number up to 100");
        assertThatThrownBy(() -> parse("--queries", "1,23")).hasMessage("--queries: expected query numbers 1 to 22, got 23");
        assertThatThrownBy(() -> parse("--queries", "0")).hasMessageContaining("1 to 22, got 0");
        assertThatThrownBy(() -> parse("--queries", "3,3")).hasMessage("--queries: expected each query once, got [3, 3]");
        assertThatThrownBy(() -> parse("--queries", "1,x")).hasMessage("--queries: not a number: '1,x'");
        assertThatThrownBy(() -> parse("--rounds", "x")).hasMessage("--rounds: not a number: 'x'");
        assertThatThrownBy(() -> parse("--rounds", "0")).hasMessage("--rounds: expected at least 1, got 0");
        assertThatThrownBy(() -> parse("--rounds")).hasMessage("--rounds needs a value");
        assertThatThrownBy(() -> parse("--forks", "0")).hasMessage("--forks: expected at least 1, got 0");
        assertThatThrownBy(() -> parse("--forks", "two")).hasMessage("--forks: not a number: 'two'");
        assertThat(parse("--forks", "2", "--rounds", "1")).extracting(TpchBenchArguments::forks, TpchBenchArguments::rounds).containsExactly(2, 1);
        assertThatThrownBy(() -> parse("--quick")).hasMessageStartingWith("unknown option --quick; expected --tpch-sf SF");
    }

    /** bin/chiplet bench checks its arguments with this file alone, through the JDK's source launcher, before it builds anything. */
    @Test
    void theLauncherChecksArgumentsFromTheSourceBeforeBuilding()
            throws Exception
    {
        Path source = Path.of("src/main/java/io/chiplet/jmh/tpch/TpchBenchArguments.java");
        String launcher = ProcessHandle.current().info().command().orElseThrow();
        Process bad = new ProcessBuilder(launcher, source.toString(), "--tpch-sf", "--tpch-sf", "0").redirectErrorStream(true).start();
        assertThat(new String(bad.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("chiplet bench: --tpch-sf 0: expected a positive number up to 100\n");
        assertThat(bad.waitFor()).isEqualTo(2);
        // The report's place is checked before the run, not when it has ended: here (jmh/) is no project root.
        Process noRoot = new ProcessBuilder(launcher, source.toString(), "--tpch-sf", "--tpch-sf", "1", "--root", "no-such-dir").redirectErrorStream(true).start();
        assertThat(new String(noRoot.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("chiplet bench: --root no-such-dir: expected the project root, whose docs/performance.md the report is written into, but "
                        + Path.of("no-such-dir/docs/performance.md") + " does not exist; pass --root DIR or --no-report\n");
        assertThat(noRoot.waitFor()).isEqualTo(2);
        Process good = new ProcessBuilder(launcher, source.toString(), "--trino-tpch-sf", "--trino-tpch-sf", "0.01", "--rounds", "1", "--root", "..")
                .redirectErrorStream(true).start();
        assertThat(good.getInputStream().readAllBytes()).isEmpty();
        assertThat(good.waitFor()).isZero();
    }

    private static TpchBenchArguments parse(String... args)
    {
        return TpchBenchArguments.parse(args, "--tpch-sf");
    }
}
