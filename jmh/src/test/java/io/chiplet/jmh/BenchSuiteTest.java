package io.chiplet.jmh;

import io.chiplet.jmh.workload.TestTopologies;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchSuiteTest
{
    @Test
    void loadNoteWarnsWhenOtherProcessesCompetedForTheCpus()
    {
        assertThat(BenchSuite.loadNote(List.of(1.0, 13.9, 2.0), 2))
                .contains("load average up to 13.9 on 2 CPUs")
                .contains("mostly noise");
        assertThat(BenchSuite.loadNote(List.of(1.5, 3.9), 2)).contains("up to 3.9 on 2 CPUs").doesNotContain("noise");
        assertThat(BenchSuite.loadNote(List.of(), 2)).isEmpty();
    }

    @Test
    void heapHoldsTheLargestWorkingSetTwice()
    {
        assertThat(BenchSuite.heapMegabytes(TestTopologies.singleL3(2, 8L << 20))).isEqualTo(1024);
        // dual EPYC: beyond is 2 GiB
        assertThat(BenchSuite.heapMegabytes(TestTopologies.dualEpyc7763())).isEqualTo(2 * 2048 + 512);
    }

    @Test
    void argumentsAreCheckedWithTheOptionNamed()
    {
        assertThat(BenchSuite.Arguments.parse(new String[] {"--quick", "--section", "16-core device"}))
                .satisfies(arguments -> {
                    assertThat(arguments.quick()).isTrue();
                    assertThat(arguments.section()).hasValue("16-core device");
                });
        assertThatThrownBy(() -> BenchSuite.Arguments.parse(new String[] {"--fast"})).hasMessageContaining("unknown option --fast");
        assertThatThrownBy(() -> BenchSuite.Arguments.parse(new String[] {"--section"})).hasMessageContaining("--section needs a value");
        assertThatThrownBy(() -> BenchSuite.Arguments.parse(new String[] {"--hwloc-xml", "/nonexistent.xml"})).hasMessageContaining("no such file");
    }
}
