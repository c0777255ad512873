package io.chiplet.spark.demo;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A machine the demo carries a reading of (hwloc's {@code lstopo} XML of a real sysfs snapshot, from hwloc's test
 * suite, BSD licence in {@code machines/HWLOC-COPYING}), and what published studies measured on its class of machine.
 *
 * @param resource the XML beside this class, under {@code machines/}
 * @param studies figures the papers measured on this class of machine: theirs, not this project's
 */
record BundledMachine(String title, String resource, List<StudyFigure> studies)
{
    /** One measured result of a paper, in a sentence, with the paper it comes from. */
    record StudyFigure(String finding, Paper paper)
    {
        StudyFigure
        {
            requireNonNull(finding, "finding is null");
            requireNonNull(paper, "paper is null");
        }
    }

    static final List<BundledMachine> ALL = List.of(
            new BundledMachine("Dual AMD EPYC 7763 (Milan, NPS1): 2 x 8 CCDs", "2xepyc7763-nps1.lstopo.xml", List.of(
                    new StudyFigure("study §4.2, Fig. 7 (TPC-H SF 100, dual EPYC Milan, geometric mean over the queries): one worker per "
                            + "chiplet (WICP) 3.41x faster than one worker for the whole machine (WIM) with SparkSQL, 3.40x with Presto, "
                            + "2.64x with SingleStore", Paper.CHIPLET_OLAP),
                    new StudyFigure("study §4.2, Fig. 8 (TPC-H SF 100, EPYC Milan, each query on its own; a separate experiment from Fig. 7, "
                            + "not its range): SparkSQL's queries 3.51x to 5.15x faster with WICP than with WIM", Paper.CHIPLET_OLAP),
                    new StudyFigure("chiplet-level deployment up to 2x faster than one worker per NUMA node, up to 7x than one per core",
                            Paper.CHIPLET_OLAP),
                    new StudyFigure("DuckDB, TPC-H: the join-heavy queries (Q3, Q4, Q5, Q7, Q9, Q10) 1.2x to 1.5x faster with the "
                            + "chiplet-aware runtime than without", Paper.CHARM))),
            new BundledMachine("Dual Intel Xeon Platinum 8480+ (Sapphire Rapids) in SNC4: 2 x 4 sub-NUMA clusters", "2xspr8480-snc4.lstopo.xml", List.of(
                    new StudyFigure("study §4.2, Fig. 7 (TPC-H SF 100, dual Sapphire Rapids, geometric mean): one worker per chiplet "
                            + "(WICP) 6.97x faster than one worker for the whole machine (WIM) with SparkSQL, 2.70x with Presto", Paper.CHIPLET_OLAP),
                    new StudyFigure("study §4.5.1, Fig. 12 (TPC-H, dual Sapphire Rapids, WICP with 1 to 112 workers against WIM, geometric "
                            + "mean): the speedup peaks at 8 workers, one per chiplet: SparkSQL 7.04x, Presto 3.62x", Paper.CHIPLET_OLAP),
                    new StudyFigure("Skylake SNC (SAP HANA): two equal analytical workloads on separate, isolated sub-NUMA domains gain "
                            + "up to 3 % throughput; bandwidth-bound scans lose much when data is not split evenly between the domains",
                            Paper.SNC_SKYLAKE))),
            new BundledMachine("Hybrid laptop, Intel 6 performance + 8 efficiency cores, one L3", "20em64t-hybrid-1p6c2t+2ca4co1t.lstopo.xml", List.of(
                    new StudyFigure("i9-12900K (8 P + 8 E cores): sending update transactions to P-cores and read-only queries to E-cores "
                            + "finished mixed batches measurably sooner than a scheduler unaware of core kinds (figures given as plots only); "
                            + "compute-bound and random-access work belongs on P-cores, sequential scans run nearly as well on E-cores",
                            Paper.HYBRID_CORES))));

    BundledMachine
    {
        requireNonNull(title, "title is null");
        requireNonNull(resource, "resource is null");
        studies = List.copyOf(studies);
    }
}
