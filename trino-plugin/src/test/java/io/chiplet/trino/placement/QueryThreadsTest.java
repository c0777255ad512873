package io.chiplet.trino.placement;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class QueryThreadsTest
{
    @Test
    void runnerThreadsIdleStartingOrBusy()
    {
        assertThat(QueryThreads.isQueryThread("SplitRunner-0")).isTrue();
        assertThat(QueryThreads.isQueryThread("SplitRunner-123")).isTrue();
        // An idle runner, SplitRunner-<runner>-<thread id>, as the kernel keeps it.
        assertThat(QueryThreads.isQueryThread("SplitRunner-3-1")).isTrue();
        // task-processor-17 as the kernel keeps it: 15 characters.
        assertThat(QueryThreads.isQueryThread("task-processor-")).isTrue();
        // Trino 476 and 483: a busy runner named <task id>-<split id>-<thread id>, 20261123_111213_00004_abcde.1.0.0-7-91,
        // whose comm is the query id's creation time.
        assertThat(QueryThreads.isQueryThread("20261123_111213")).isTrue();
    }

    @Test
    void otherTrinoAndJvmThreadsAreNot()
    {
        assertThat(QueryThreads.isQueryThread("http-worker-12")).isFalse();
        assertThat(QueryThreads.isQueryThread("Query-20261123_")).isFalse();
        assertThat(QueryThreads.isQueryThread("Task-20261123_1")).isFalse();
        assertThat(QueryThreads.isQueryThread("C2 CompilerThre")).isFalse();
        assertThat(QueryThreads.isQueryThread("GC Thread#0")).isFalse();
        assertThat(QueryThreads.isQueryThread("splitrunner-1")).isFalse();
        assertThat(QueryThreads.isQueryThread("2026-11-23")).isFalse();
    }
}
