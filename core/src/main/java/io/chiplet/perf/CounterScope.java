package io.chiplet.perf;

/**
 * What a counter group observes: the calling thread, another thread by its Linux thread id (of this process, or of
 * any process the caller may ptrace), or every task on one CPU. Maps onto {@code perf_event_open}'s {@code pid}
 * and {@code cpu} arguments.
 */
public sealed interface CounterScope
{
    int pid();

    int cpu();

    /** CPU-wide counting observes other users' tasks, which the kernel guards more strictly (paranoid &lt;= 0). */
    default boolean isCpuWide()
    {
        return this instanceof Cpu;
    }

    static CounterScope callingThread()
    {
        return CallingThread.INSTANCE;
    }

    static CounterScope thread(int tid)
    {
        return new ThreadId(tid);
    }

    static CounterScope cpu(int cpu)
    {
        return new Cpu(cpu);
    }

    /** {@code pid = 0, cpu = -1}: the thread that opens the group, wherever it runs. */
    enum CallingThread
            implements CounterScope
    {
        INSTANCE;

        @Override
        public int pid()
        {
            return 0;
        }

        @Override
        public int cpu()
        {
            return -1;
        }

        @Override
        public String toString()
        {
            return "calling thread";
        }
    }

    /** {@code pid = tid, cpu = -1}: one Linux thread, by its thread id. */
    record ThreadId(int tid)
            implements CounterScope
    {
        public ThreadId
        {
            if (tid <= 0) {
                throw new IllegalArgumentException("thread id must be positive: " + tid);
            }
        }

        @Override
        public int pid()
        {
            return tid;
        }

        @Override
        public int cpu()
        {
            return -1;
        }

        @Override
        public String toString()
        {
            return "thread " + tid;
        }
    }

    /** {@code pid = -1, cpu = N}: everything that runs on one CPU. */
    record Cpu(int cpu)
            implements CounterScope
    {
        public Cpu
        {
            if (cpu < 0) {
                throw new IllegalArgumentException("cpu must not be negative: " + cpu);
            }
        }

        @Override
        public int pid()
        {
            return -1;
        }

        @Override
        public String toString()
        {
            return "cpu " + cpu;
        }
    }
}
