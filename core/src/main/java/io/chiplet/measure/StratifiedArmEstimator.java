package io.chiplet.measure;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The job's speed-up from placement, estimated from unpaired work: units (tasks, queries, windows' mean queries) that
 * ran either placed or as control, never both.
 *
 * <p><b>What it estimates.</b> Within a stratum (a stage or a query shape, at one control share) each arm's cost is a
 * ratio of totals: the arm's summed time over the work its units did (bytes read when every unit of the stratum read
 * some, else records, else the units themselves). The job's time ratio, placed over control, is
 * {@code R = sum_s W_s c_s(placed) / sum_s W_s c_s(control)} with {@code W_s} all the work the stratum did (both
 * arms): the placed-equivalent time of the work actually done over its control-equivalent time. Strata thus count by
 * where the job's time goes, and within a stratum a unit counts by its time, so an effect on the largest tasks counts as
 * much as it weighs in the job. The speed-up shown is {@code 1 / R}.
 *
 * <p><b>Work left out.</b> A design that leaves units out of the comparison (a Spark task that spans a switch of its
 * host's arm, or starts in the washout after one) hands them in as {@link LeftOutUnit}s. Their stratum is then
 * post-stratified by size class (what each unit read, {@link #SIZE_CLASS_RATIO} wide), and each class's {@code W}
 * is all the work done in it: the compared units' plus the work-equivalent of the left-out units' time. The estimate
 * then assumes that within a stratum and size class, the left-out units would have shown the compared units' cost
 * ratio. Units bigger than any compared take the ratio of the biggest compared (classes are merged until each has
 * compared units of both arms); where the effect grows with size, the figure then leans towards 1, and
 * {@code docs/measurement-proof.md} measures by how much.
 *
 * <p><b>Its interval.</b> {@code log R} is linearised (the delta method of a ratio estimator): a unit of stratum
 * {@code s}, arm {@code a}, contributes {@code +-W_s (t - c_sa w) / (Total_a X_sa)} (plus for placed, minus for
 * control). Units are summed per <i>cluster</i> ({@link UnitObservation#cluster}: a window, an executor; a unit
 * without one is its own) within its arm before squaring (cluster-robust), and each cluster's square is divided by
 * {@code 1 - l_g}, its leverage: its share of the work of the stratum-arms it is in (a bias-reduced, CR2-type
 * correction: with one stratum and one unit per cluster it is the {@code n / (n - 1)} of a sample variance, and it does
 * not vanish when strata have few control clusters, as a single {@code G / (G - 1)} would). The 95 % interval uses
 * Student's t with Welch-Satterthwaite's degrees of freedom over the two arms, each arm's variance having its clusters
 * less the leverages they used up ({@code G_a - sum l_g}, i.e. less one per stratum mean it fitted): the number of
 * clusters, not of units, is what the variance rests on.
 *
 * <p>A stratum is compared when each arm has two clusters; others are left out and counted. The per-unit figure
 * (the stratified mean of log cost ratios, every unit alike: what earlier versions showed) is kept as a labelled
 * diagnostic with the same cluster-robust interval ({@link ArmEstimate#perUnit}). Pure and deterministic.
 */
public final class StratifiedArmEstimator
{
    public static final int DEFAULT_MIN_UNITS_PER_ARM = 20;
    /**
     * Size classes of a stratum with left-out work are this factor wide in work: 2, a task's work within a factor of 2
     * of its class's others.
     */
    public static final double SIZE_CLASS_RATIO = 2;
    /** A size class has at least this many compared units in each arm, or joins its neighbour. */
    public static final int MIN_CLASS_UNITS = 5;
    /** Leverage is capped so that one cluster's square is at most this many times itself. */
    private static final double MAX_LEVERAGE = 0.9;

    private final double confidence;
    private final int minUnitsPerArm;

    /**
     * @param minUnitsPerArm placed and control units (in compared strata) below which the estimate is "not enough
     *         evidence yet"
     */
    public StratifiedArmEstimator(double confidence, int minUnitsPerArm)
    {
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("expected a confidence between 0 and 1, got " + confidence);
        }
        if (minUnitsPerArm < 2) {
            throw new IllegalArgumentException("expected at least 2 units per arm before estimating, got " + minUnitsPerArm);
        }
        this.confidence = confidence;
        this.minUnitsPerArm = minUnitsPerArm;
    }

    /** 95 %, 20 units per arm. */
    public static StratifiedArmEstimator standard()
    {
        return new StratifiedArmEstimator(PairedBootstrap.DEFAULT_CONFIDENCE, DEFAULT_MIN_UNITS_PER_ARM);
    }

    public double confidence()
    {
        return confidence;
    }

    /** One arm of one stratum: each unit's time, work and cluster index (clusters are numbered per estimate, per arm). */
    private record ArmUnits(double[] time, double[] work, int[] cluster, int clusters)
    {
        double totalTime()
        {
            double sum = 0;
            for (double value : time) {
                sum += value;
            }
            return sum;
        }

        double totalWork()
        {
            double sum = 0;
            for (double value : work) {
                sum += value;
            }
            return sum;
        }

        int size()
        {
            return time.length;
        }

        /** The units {@code keep} says, their cluster numbers kept. */
        ArmUnits subset(boolean[] keep)
        {
            int count = 0;
            for (boolean kept : keep) {
                count += kept ? 1 : 0;
            }
            double[] subTime = new double[count];
            double[] subWork = new double[count];
            int[] subCluster = new int[count];
            java.util.Set<Integer> distinct = new java.util.HashSet<>();
            int j = 0;
            for (int i = 0; i < keep.length; i++) {
                if (keep[i]) {
                    subTime[j] = time[i];
                    subWork[j] = work[i];
                    subCluster[j] = cluster[i];
                    distinct.add(cluster[i]);
                    j++;
                }
            }
            return new ArmUnits(subTime, subWork, subCluster, distinct.size());
        }
    }

    /**
     * A stratum, or one size class of it ({@code name} is then the stratum's, so that its classes make up its figure).
     *
     * @param leftOutWork the work-equivalent of its left-out units' time ({@link LeftOutUnit}), in its basis: counted
     *         in its weight
     * @param leftOutTime their time: counted in its share of the job's time
     */
    private record Stratum(String name, String basis, ArmUnits placed, ArmUnits control, double leftOutWork, double leftOutTime)
    {
        ArmUnits arm(boolean isPlaced)
        {
            return isPlaced ? placed : control;
        }

        /** All the work it did: both arms' and the left-out units'. */
        double work()
        {
            return placed.totalWork() + control.totalWork() + leftOutWork;
        }

        double time()
        {
            return placed.totalTime() + control.totalTime() + leftOutTime;
        }

        int units()
        {
            return placed.size() + control.size();
        }
    }

    /** A log ratio with its cluster-robust variance and degrees of freedom. */
    private record LogFigure(double log, double variance, double freedom)
    {
        double half(double confidence)
        {
            return NormalQuantile.student(1 - (1 - confidence) / 2, Math.max(1, freedom)) * Math.sqrt(variance);
        }
    }

    /** The estimate from compared units alone: every stratum counts by the work they did. */
    public ArmEstimate estimate(Collection<UnitObservation> observations)
    {
        return estimate(observations, List.of());
    }

    /**
     * The estimate where some units were left out of the comparison ({@link LeftOutUnit}: their arm is ambiguous).
     * Their work still counts: a stratum with left-out work is post-stratified by size class ({@link #SIZE_CLASS_RATIO}),
     * and each class's cost ratio counts by all the work done in it, left-out units' included.
     */
    public ArmEstimate estimate(Collection<UnitObservation> observations, Collection<LeftOutUnit> leftOutUnits)
    {
        requireNonNull(observations, "observations is null");
        requireNonNull(leftOutUnits, "leftOutUnits is null");
        Map<String, List<UnitObservation>> byStratum = new LinkedHashMap<>();
        for (UnitObservation observation : observations) {
            byStratum.computeIfAbsent(observation.stratum(), key -> new ArrayList<>()).add(observation);
        }
        Map<String, List<LeftOutUnit>> leftOutByStratum = new HashMap<>();
        for (LeftOutUnit unit : leftOutUnits) {
            leftOutByStratum.computeIfAbsent(unit.stratum(), key -> new ArrayList<>()).add(unit);
        }
        // Clusters are numbered per arm over all strata: a window's queries of several shapes are one cluster.
        Map<String, Integer> placedIds = new HashMap<>();
        Map<String, Integer> controlIds = new HashMap<>();
        int[] alone = {0};
        List<Stratum> strata = new ArrayList<>();
        List<Stratum> classes = new ArrayList<>();
        int leftOut = 0;
        int placedUnits = 0;
        int controlUnits = 0;
        for (Map.Entry<String, List<UnitObservation>> entry : byStratum.entrySet()) {
            List<UnitObservation> units = entry.getValue();
            if (distinctClusters(units, Arm.PLACED) < 2 || distinctClusters(units, Arm.CONTROL) < 2) {
                leftOut += units.size();
                continue;
            }
            List<LeftOutUnit> leftOutOfStratum = leftOutByStratum.getOrDefault(entry.getKey(), List.of());
            Stratum stratum = stratum(entry.getKey(), units, leftOutOfStratum, placedIds, controlIds, alone);
            strata.add(stratum);
            classes.addAll(sizeClasses(stratum, leftOutOfStratum));
            placedUnits += stratum.placed().size();
            controlUnits += stratum.control().size();
        }
        int placedClusters = placedIds.size();
        int controlClusters = controlIds.size();
        List<StratumFigure> figures = figures(classes);
        if (placedUnits < minUnitsPerArm || controlUnits < minUnitsPerArm || strata.isEmpty()) {
            return new ArmEstimate(Optional.empty(), 0, 0, placedUnits, controlUnits, placedClusters, controlClusters, byStratum.size(), leftOut, minUnitsPerArm,
                    figures, Optional.empty());
        }
        LogFigure job = ratioOfTotals(classes, placedClusters, controlClusters);
        double half = job.half(confidence);
        RatioEstimate ratio = new RatioEstimate(Math.exp(job.log()), Math.exp(job.log() - half), Math.exp(job.log() + half), confidence, spread(strata),
                strata.size(), placedUnits + controlUnits, 0);
        LogFigure unitMean = perUnitMean(strata, placedClusters, controlClusters);
        double unitHalf = unitMean.half(confidence);
        RatioEstimate perUnit = new RatioEstimate(Math.exp(unitMean.log()), Math.exp(unitMean.log() - unitHalf), Math.exp(unitMean.log() + unitHalf), confidence,
                spread(strata), strata.size(), placedUnits + controlUnits, 0);
        return new ArmEstimate(Optional.of(ratio), Math.sqrt(job.variance()), job.freedom(), placedUnits, controlUnits, placedClusters, controlClusters,
                byStratum.size(), leftOut, minUnitsPerArm, figures, Optional.of(perUnit));
    }

    /** Up to 2: the distinct clusters of {@code arm}'s units, a unit without a cluster being its own. */
    private static int distinctClusters(List<UnitObservation> units, Arm arm)
    {
        String first = null;
        for (UnitObservation unit : units) {
            if (unit.arm() != arm) {
                continue;
            }
            if (first != null && (unit.cluster().isEmpty() || !unit.cluster().equals(first))) {
                return 2;
            }
            first = unit.cluster();
        }
        return first == null ? 0 : 1;
    }

    private static Stratum stratum(String name, List<UnitObservation> units, List<LeftOutUnit> leftOut, Map<String, Integer> placedIds,
            Map<String, Integer> controlIds, int[] alone)
    {
        boolean bytes = units.stream().allMatch(unit -> unit.bytesRead() > 0) && leftOut.stream().allMatch(unit -> unit.bytesRead() > 0);
        boolean records = units.stream().allMatch(unit -> unit.recordsRead() > 0) && leftOut.stream().allMatch(unit -> unit.recordsRead() > 0);
        String basis = bytes ? "bytes" : records ? "records" : "unit";
        double leftOutTime = leftOut.stream().mapToDouble(LeftOutUnit::seconds).sum();
        Stratum stratum = new Stratum(name, basis, arm(units, Arm.PLACED, bytes, records, placedIds, alone), arm(units, Arm.CONTROL, bytes, records, controlIds, alone),
                0, 0);
        return withLeftOut(stratum.placed(), stratum.control(), stratum, leftOutTime);
    }

    /**
     * A stratum (or size class) of these arms whose left-out units took {@code leftOutTime}: their work counts as the
     * work that time does at the compared units' cost (both arms pooled). Not their own work: they are slower per unit
     * of work than the compared units of their class (that is why they ran long enough to span a switch: stragglers,
     * a slow moment), and the job's time ratio weighs work by the time it takes.
     */
    private static Stratum withLeftOut(ArmUnits placed, ArmUnits control, Stratum of, double leftOutTime)
    {
        double cost = (placed.totalTime() + control.totalTime()) / (placed.totalWork() + control.totalWork());
        return new Stratum(of.name(), of.basis(), placed, control, leftOutTime / cost, leftOutTime);
    }

    private static double work(LeftOutUnit unit, String basis)
    {
        return switch (basis) {
            case "bytes" -> unit.bytesRead();
            case "records" -> unit.recordsRead();
            default -> 1;
        };
    }

    /**
     * A stratum's size classes, when some of its work was left out: units are classed by their work against the
     * median of all the stratum's units ({@code floor(log_r(work / median))}, {@code r} = {@link #SIZE_CLASS_RATIO}),
     * and neighbouring classes merged, from the smallest up, until each has {@link #MIN_CLASS_UNITS} units and two
     * clusters in each arm (a last class short of it joins the one below). Each class then counts by all the work done
     * in it, left-out units' included ({@link #withLeftOut}): the design leaves long units out more often, and where
     * placement's effect depends on a unit's size, the compared units alone would under-represent the sizes it leaves
     * out. A stratum without left-out work, or whose units read nothing (no size to class them by), is one class.
     */
    private static List<Stratum> sizeClasses(Stratum stratum, List<LeftOutUnit> leftOut)
    {
        if (leftOut.isEmpty() || stratum.basis().equals("unit")) {
            return List.of(stratum);
        }
        double[] all = new double[stratum.placed().size() + stratum.control().size() + leftOut.size()];
        int n = 0;
        for (double work : stratum.placed().work()) {
            all[n++] = work;
        }
        for (double work : stratum.control().work()) {
            all[n++] = work;
        }
        double[] leftOutWork = new double[leftOut.size()];
        for (int i = 0; i < leftOut.size(); i++) {
            leftOutWork[i] = work(leftOut.get(i), stratum.basis());
            all[n++] = leftOutWork[i];
        }
        java.util.Arrays.sort(all);
        double median = all.length % 2 == 1 ? all[all.length / 2] : (all[all.length / 2 - 1] + all[all.length / 2]) / 2;
        int[] placedClass = sizeClass(stratum.placed().work(), median);
        int[] controlClass = sizeClass(stratum.control().work(), median);
        int[] leftOutClass = sizeClass(leftOutWork, median);
        java.util.TreeSet<Integer> sizes = new java.util.TreeSet<>();
        for (int[] ofArm : new int[][] {placedClass, controlClass, leftOutClass}) {
            for (int size : ofArm) {
                sizes.add(size);
            }
        }
        // Merge from the smallest class up until each group is comparable on its own.
        Map<Integer, Integer> groupOf = new HashMap<>();
        int group = 0;
        boolean open = false;
        for (int size : sizes) {
            groupOf.put(size, group);
            open = true;
            if (comparable(stratum.placed(), placedClass, groupOf, group) && comparable(stratum.control(), controlClass, groupOf, group)) {
                group++;
                open = false;
            }
        }
        int groups = group;
        if (open) {
            if (group == 0) {
                return List.of(stratum);
            }
            int last = group;
            groupOf.replaceAll((size, of) -> of == last ? last - 1 : of);
        }
        List<Stratum> classes = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            double time = 0;
            for (int i = 0; i < leftOut.size(); i++) {
                if (groupOf.get(leftOutClass[i]) == g) {
                    time += leftOut.get(i).seconds();
                }
            }
            classes.add(withLeftOut(stratum.placed().subset(in(placedClass, groupOf, g)), stratum.control().subset(in(controlClass, groupOf, g)), stratum, time));
        }
        return classes;
    }

    private static int[] sizeClass(double[] work, double median)
    {
        int[] size = new int[work.length];
        for (int i = 0; i < work.length; i++) {
            size[i] = (int) Math.max(-64, Math.min(64, Math.floor(Math.log(work[i] / median) / Math.log(SIZE_CLASS_RATIO))));
        }
        return size;
    }

    private static boolean[] in(int[] sizeClass, Map<Integer, Integer> groupOf, int group)
    {
        boolean[] in = new boolean[sizeClass.length];
        for (int i = 0; i < in.length; i++) {
            in[i] = groupOf.get(sizeClass[i]) == group;
        }
        return in;
    }

    /** Whether the arm's units of {@code group} are enough for a class of their own. */
    private static boolean comparable(ArmUnits arm, int[] sizeClass, Map<Integer, Integer> groupOf, int group)
    {
        int units = 0;
        java.util.Set<Integer> clusters = new java.util.HashSet<>();
        for (int i = 0; i < sizeClass.length; i++) {
            Integer of = groupOf.get(sizeClass[i]);
            if (of != null && of == group) {
                units++;
                clusters.add(arm.cluster()[i]);
            }
        }
        return units >= MIN_CLASS_UNITS && clusters.size() >= 2;
    }

    private static ArmUnits arm(List<UnitObservation> units, Arm arm, boolean bytes, boolean records, Map<String, Integer> ids, int[] alone)
    {
        List<UnitObservation> ofArm = units.stream().filter(unit -> unit.arm() == arm).toList();
        double[] time = new double[ofArm.size()];
        double[] work = new double[ofArm.size()];
        int[] cluster = new int[ofArm.size()];
        java.util.Set<Integer> distinct = new java.util.HashSet<>();
        for (int i = 0; i < ofArm.size(); i++) {
            UnitObservation unit = ofArm.get(i);
            time[i] = unit.seconds();
            work[i] = bytes ? unit.bytesRead() : records ? unit.recordsRead() : 1;
            // A unit without a cluster is its own: a name no engine's cluster can have.
            String key = unit.cluster().isEmpty() ? "\u0000unit " + alone[0]++ : unit.cluster();
            cluster[i] = ids.computeIfAbsent(key, ignored -> ids.size());
            distinct.add(cluster[i]);
        }
        return new ArmUnits(time, work, cluster, distinct.size());
    }

    /**
     * The job's log time ratio, ratio of totals per stratum, strata weighted by their work, and its linearised,
     * cluster-robust variance.
     */
    private static LogFigure ratioOfTotals(List<Stratum> strata, int placedClusters, int controlClusters)
    {
        double placedTotal = 0;
        double controlTotal = 0;
        for (Stratum stratum : strata) {
            placedTotal += stratum.work() * stratum.placed().totalTime() / stratum.placed().totalWork();
            controlTotal += stratum.work() * stratum.control().totalTime() / stratum.control().totalWork();
        }
        ClusterSums placed = new ClusterSums(placedClusters);
        ClusterSums control = new ClusterSums(controlClusters);
        for (Stratum stratum : strata) {
            for (boolean isPlaced : new boolean[] {true, false}) {
                ArmUnits arm = stratum.arm(isPlaced);
                double work = arm.totalWork();
                double cost = arm.totalTime() / work;
                // d log(Total_a) / d t_i: the stratum's work over the arm's total and the arm's work in the stratum.
                double coefficient = stratum.work() / ((isPlaced ? placedTotal : controlTotal) * work);
                ClusterSums sums = isPlaced ? placed : control;
                sums.startStratum();
                for (int i = 0; i < arm.size(); i++) {
                    sums.add(arm.cluster()[i], coefficient * (arm.time()[i] - cost * arm.work()[i]), coefficient * cost * arm.work()[i], arm.work()[i] / work);
                }
                sums.endStratum();
            }
        }
        return combine(Math.log(placedTotal / controlTotal), placed, control);
    }

    /** The diagnostic: the mean of log cost differences, strata weighted by their units (every unit alike). */
    private static LogFigure perUnitMean(List<Stratum> strata, int placedClusters, int controlClusters)
    {
        double units = strata.stream().mapToInt(Stratum::units).sum();
        double point = 0;
        ClusterSums placed = new ClusterSums(placedClusters);
        ClusterSums control = new ClusterSums(controlClusters);
        for (Stratum stratum : strata) {
            double weight = stratum.units() / units;
            double[] means = new double[2];
            for (boolean isPlaced : new boolean[] {true, false}) {
                ArmUnits arm = stratum.arm(isPlaced);
                double mean = 0;
                for (int i = 0; i < arm.size(); i++) {
                    mean += Math.log(arm.time()[i] / arm.work()[i]);
                }
                mean /= arm.size();
                means[isPlaced ? 0 : 1] = mean;
                double coefficient = weight / arm.size();
                ClusterSums sums = isPlaced ? placed : control;
                sums.startStratum();
                for (int i = 0; i < arm.size(); i++) {
                    sums.add(arm.cluster()[i], coefficient * (Math.log(arm.time()[i] / arm.work()[i]) - mean), coefficient, 1.0 / arm.size());
                }
                sums.endStratum();
            }
            point += weight * (means[0] - means[1]);
        }
        return combine(point, placed, control);
    }

    /**
     * The variance of a difference of the arms' log totals, pooled: each arm's clusters scatter around their expected
     * influence by one relative dispersion common to both arms (exact when placement makes no difference, and when it
     * scales every unit's time alike), estimated from all clusters with {@code G_a - sum l_g} degrees of freedom per
     * arm. Pooling keeps the smaller arm's few clusters from deciding the width alone: with heavy tails, a control arm
     * that happened to draw no straggler is both fast and narrow, and its own variance (Welch's) made a no-effect run
     * look "placed slower" in 7 % of simulated runs at a control share of 0.25.
     */
    private static LogFigure combine(double log, ClusterSums placed, ClusterSums control)
    {
        double placedFreedom = placed.freedom();
        double controlFreedom = control.freedom();
        double all = placedFreedom + controlFreedom;
        double placedDispersion = placed.variance() / placed.scales();
        double controlDispersion = control.variance() / control.scales();
        double dispersion = (placedFreedom * placedDispersion + controlFreedom * controlDispersion) / all;
        // Satterthwaite: 2 d^2 / Var(d), Var(d) read from how the clusters' squares scatter around their expectation,
        // so that heavy tails (a few clusters holding most of the squares) leave few degrees of freedom.
        double scatter = (placedFreedom * placedFreedom * placed.dispersionVariance(placedDispersion)
                + controlFreedom * controlFreedom * control.dispersionVariance(controlDispersion)) / (all * all);
        double freedom = scatter > 0 ? Math.min(all, 2 * dispersion * dispersion / scatter) : all;
        return new LogFigure(log, dispersion * (placed.scales() + control.scales()), Math.max(1, freedom));
    }

    /**
     * One arm's clusters: each cluster's summed influence, its scale (the influence its units' expected times have),
     * and its leverage (its share of the work of each stratum-arm it is in, averaged over those with its squared scale
     * in them as weight).
     */
    private static final class ClusterSums
    {
        private final double[] influence;
        private final double[] scale;
        private final double[] leverageWeighted;
        private final double[] scaleSquares;
        private final boolean[] seen;
        // Per stratum: each cluster's scale and work share in it, and which clusters it touched.
        private final double[] stratumScale;
        private final double[] stratumShare;
        private final int[] touched;
        private int touchedCount;

        ClusterSums(int clusters)
        {
            influence = new double[clusters];
            scale = new double[clusters];
            leverageWeighted = new double[clusters];
            scaleSquares = new double[clusters];
            seen = new boolean[clusters];
            stratumScale = new double[clusters];
            stratumShare = new double[clusters];
            touched = new int[clusters];
        }

        void startStratum()
        {
            touchedCount = 0;
        }

        void add(int cluster, double residual, double unitScale, double share)
        {
            influence[cluster] += residual;
            scale[cluster] += unitScale;
            seen[cluster] = true;
            if (stratumScale[cluster] == 0 && stratumShare[cluster] == 0) {
                touched[touchedCount++] = cluster;
            }
            stratumScale[cluster] += unitScale;
            stratumShare[cluster] += share;
        }

        void endStratum()
        {
            for (int t = 0; t < touchedCount; t++) {
                int cluster = touched[t];
                double squared = stratumScale[cluster] * stratumScale[cluster];
                leverageWeighted[cluster] += squared * stratumShare[cluster];
                scaleSquares[cluster] += squared;
                stratumScale[cluster] = 0;
                stratumShare[cluster] = 0;
            }
        }

        private double leverage(int cluster)
        {
            return scaleSquares[cluster] > 0 ? Math.min(MAX_LEVERAGE, leverageWeighted[cluster] / scaleSquares[cluster]) : 0;
        }

        /** The arm's cluster-robust variance: each cluster's squared influence over one less its leverage. */
        double variance()
        {
            double sum = 0;
            for (int g = 0; g < influence.length; g++) {
                if (seen[g]) {
                    sum += influence[g] * influence[g] / (1 - leverage(g));
                }
            }
            return sum;
        }

        /** The same for the clusters' scales: what the variance would be at a relative dispersion of 1. */
        double scales()
        {
            double sum = 0;
            for (int g = 0; g < influence.length; g++) {
                if (seen[g]) {
                    sum += scale[g] * scale[g] / (1 - leverage(g));
                }
            }
            return sum;
        }

        /** The variance of this arm's dispersion estimate: its clusters' squares' scatter around {@code dispersion} times their scale. */
        double dispersionVariance(double dispersion)
        {
            double sum = 0;
            double scales = 0;
            for (int g = 0; g < influence.length; g++) {
                if (seen[g]) {
                    double adjusted = 1 / (1 - leverage(g));
                    double deviation = influence[g] * influence[g] * adjusted - dispersion * scale[g] * scale[g] * adjusted;
                    sum += deviation * deviation;
                    scales += scale[g] * scale[g] * adjusted;
                }
            }
            return scales > 0 ? sum / (scales * scales) : 0;
        }

        /** Clusters less the leverage they used up: about one per stratum mean fitted. */
        double freedom()
        {
            double clusters = 0;
            double used = 0;
            for (int g = 0; g < influence.length; g++) {
                if (seen[g]) {
                    clusters++;
                    used += leverage(g);
                }
            }
            return Math.max(1, clusters - used);
        }
    }

    private List<StratumFigure> figures(List<Stratum> strata)
    {
        if (strata.isEmpty()) {
            return List.of();
        }
        double time = strata.stream().mapToDouble(Stratum::time).sum();
        Map<String, List<Stratum>> byName = new LinkedHashMap<>();
        for (Stratum stratum : strata) {
            byName.computeIfAbsent(stratum.name(), key -> new ArrayList<>()).add(stratum);
        }
        List<StratumFigure> figures = new ArrayList<>();
        for (List<Stratum> classes : byName.values()) {
            // Its own clusters, renumbered alike in all its size classes.
            Map<Integer, Integer> placedIds = new HashMap<>();
            Map<Integer, Integer> controlIds = new HashMap<>();
            List<Stratum> own = classes.stream()
                    .map(stratum -> new Stratum(stratum.name(), stratum.basis(), renumbered(stratum.placed(), placedIds), renumbered(stratum.control(), controlIds),
                            stratum.leftOutWork(), stratum.leftOutTime()))
                    .toList();
            LogFigure figure = ratioOfTotals(own, placedIds.size(), controlIds.size());
            double half = figure.half(confidence);
            Stratum first = classes.get(0);
            figures.add(new StratumFigure(first.name(), classes.stream().mapToInt(stratum -> stratum.placed().size()).sum(),
                    classes.stream().mapToInt(stratum -> stratum.control().size()).sum(), first.basis(), Math.exp(figure.log()),
                    Math.exp(figure.log() - half), Math.exp(figure.log() + half), classes.stream().mapToDouble(Stratum::time).sum() / time));
        }
        return figures;
    }

    private static ArmUnits renumbered(ArmUnits arm, Map<Integer, Integer> ids)
    {
        int[] cluster = new int[arm.size()];
        for (int i = 0; i < cluster.length; i++) {
            cluster[i] = ids.computeIfAbsent(arm.cluster()[i], ignored -> ids.size());
        }
        return new ArmUnits(arm.time(), arm.work(), cluster, (int) java.util.Arrays.stream(cluster).distinct().count());
    }

    /** The typical scatter of one unit's log cost around its arm's mean, as a factor. */
    private static double spread(List<Stratum> strata)
    {
        double squares = 0;
        int freedom = 0;
        for (Stratum stratum : strata) {
            for (boolean isPlaced : new boolean[] {true, false}) {
                ArmUnits arm = stratum.arm(isPlaced);
                double mean = 0;
                for (int i = 0; i < arm.size(); i++) {
                    mean += Math.log(arm.time()[i] / arm.work()[i]);
                }
                mean /= arm.size();
                for (int i = 0; i < arm.size(); i++) {
                    double deviation = Math.log(arm.time()[i] / arm.work()[i]) - mean;
                    squares += deviation * deviation;
                }
                freedom += arm.size() - 1;
            }
        }
        return freedom == 0 ? 0 : Math.expm1(Math.sqrt(squares / freedom));
    }
}
