package io.chiplet.measure;

/**
 * The seeded random draw of each unit's {@link Arm}, stratified: units are numbered within their stratum (a Spark
 * task by its partition within its stage; a time window by its number on its worker), cut into consecutive blocks
 * of {@link #blockSize} units, and in each block exactly one unit, drawn at random from the seed, the stratum and the
 * block, is control (permuted-block randomisation). So every stratum of at least one block has both arms, a stratum's
 * control share is the asked one up to one unit, and which units are control cannot follow the order work arrives in.
 * The draw is a pure function of its arguments: any process given the same seed draws the same arms, and nothing is
 * kept between draws.
 *
 * @param seed the run's seed: the same seed, the same arms
 */
public record ArmAssignment(long seed)
{
    /** The largest control share: with one control in every block of two, the arms are even. */
    public static final double MAX_CONTROL_SHARE = 0.5;

    /**
     * @param stratum the unit's stratum (a stage id, a worker's number)
     * @param unit the unit's number within its stratum, from 0 (a partition id, a window number)
     * @param controlShare the wanted share of control units, 0 (none: every unit placed) to {@value #MAX_CONTROL_SHARE}
     */
    public Arm of(long stratum, long unit, double controlShare)
    {
        int block = blockSize(controlShare);
        if (block == 0) {
            return Arm.PLACED;
        }
        if (unit < 0) {
            throw new IllegalArgumentException("expected a unit number of 0 or more, got " + unit);
        }
        long blockIndex = unit / block;
        long drawn = Long.remainderUnsigned(mix(seed ^ mix(stratum ^ mix(blockIndex + 0x9e3779b97f4a7c15L))), block);
        return unit % block == drawn ? Arm.CONTROL : Arm.PLACED;
    }

    /** The stratum of whole processes (executors) drawn by {@link #ofProcess}: apart from every stage or worker number. */
    static final long PROCESSES = Long.MIN_VALUE;

    /**
     * The arm of a whole process (a Spark executor in executor mode, placed or not for its life), by the order the
     * processes asked in: the first ({@code ordinal} 0) is always placed, so an application of one executor runs as
     * it would unmeasured and a control needs a second one; the later ones are drawn as units 0, 1, ... of one
     * stratum, one control in each block of {@code 1 / share}.
     *
     * @param ordinal the process's number in the order processes asked, from 0
     */
    public Arm ofProcess(long ordinal, double controlShare)
    {
        if (ordinal < 0) {
            throw new IllegalArgumentException("expected a process number of 0 or more, got " + ordinal);
        }
        blockSize(controlShare);
        return ordinal == 0 ? Arm.PLACED : of(PROCESSES, ordinal - 1, controlShare);
    }

    /**
     * Units per block for a control share: the nearest whole {@code 1 / share}, 0 for a share of 0 (no blocks, no
     * control).
     *
     * @throws IllegalArgumentException for a share outside {@code [0, 0.5]}
     */
    public static int blockSize(double controlShare)
    {
        if (!(controlShare >= 0 && controlShare <= MAX_CONTROL_SHARE)) {
            throw new IllegalArgumentException("expected a control share from 0 to " + MAX_CONTROL_SHARE + ", got " + controlShare);
        }
        if (controlShare == 0) {
            return 0;
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(2, Math.round(1 / controlShare)));
    }

    /** Stafford's variant 13 of the 64-bit finaliser (as in {@link java.util.SplittableRandom}): every input bit moves every output bit. */
    private static long mix(long z)
    {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
