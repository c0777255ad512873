package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * What sets and reads a thread's CPU affinity. {@code ffm} (the default) calls the kernel directly through
 * {@link SchedSyscalls}; {@code openhft} goes through OpenHFT Java-Thread-Affinity, for deployments that already
 * reserve cores with it.
 */
public interface PinningBackend
{
    /** The configuration name: {@code ffm} or {@code openhft}. */
    String name();

    /** The calling thread's Linux thread id. */
    int currentThreadId();

    /** The affinity of thread {@code tid} of this process. */
    CpuSet getAffinity(int tid);

    /** Sets the affinity of thread {@code tid} of this process; the caller has checked {@code cpus} is allowed. */
    void setAffinity(int tid, CpuSet cpus);

    /**
     * The affinity of thread {@code tid} into {@code words} ({@code cpu_set_t} words, room for
     * {@link CpuSet#MAX_CPUS}); returns the words used. The {@code ffm} backend allocates nothing; this default goes
     * through {@link #getAffinity(int)}.
     */
    default int getAffinity(int tid, long[] words)
    {
        long[] mask = CpuMaskWords.of(getAffinity(tid));
        System.arraycopy(mask, 0, words, 0, mask.length);
        return mask.length;
    }

    /** Sets the affinity of thread {@code tid} from the first {@code count} of {@code words}; as above. */
    default void setAffinity(int tid, long[] words, int count)
    {
        setAffinity(tid, CpuMaskWords.toCpuSet(words, count));
    }

    /**
     * The pinning backends a setting can name ({@code ffm}, {@code openhft}): the one list of their names, read by the
     * plugins' {@code pinning.backend} setting and {@code chiplet exec --backend}.
     */
    enum Kind
    {
        /** chiplet-core's own calls ({@code sched_setaffinity}, {@code set_mempolicy}) through FFM or JNA. */
        FFM,
        /** OpenHFT's Java-Thread-Affinity library, for deployments that already standardise on it. */
        OPENHFT;

        /** The name a setting gives: {@code ffm} or {@code openhft}. */
        public String configName()
        {
            return name().toLowerCase(Locale.ROOT);
        }

        /** A new backend of this kind (the {@code ffm} one is shared). */
        public PinningBackend backend()
        {
            return switch (this) {
                case FFM -> FfmPinningBackend.INSTANCE;
                case OPENHFT -> new OpenHftPinningBackend();
            };
        }
    }

    /**
     * The backend a configuration string names.
     *
     * @throws IllegalArgumentException naming the value and the accepted ones
     */
    static PinningBackend fromName(String name)
    {
        requireNonNull(name, "name is null");
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        for (Kind kind : Kind.values()) {
            if (kind.configName().equals(wanted)) {
                return kind.backend();
            }
        }
        throw new IllegalArgumentException("unknown pinning backend \"" + name + "\": expected ffm or openhft");
    }
}
