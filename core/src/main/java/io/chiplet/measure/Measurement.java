package io.chiplet.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One engine run's in-place comparison, the one object an engine adapter keeps: it records each finished unit with
 * its arm, and on {@link #update()} re-estimates, lets the guard look, and says what the placing side does next
 * ({@link Directive}). Units that finish after the guard stopped placement are counted but not compared: they are all
 * control and later than every placed unit, so comparing them would mix the effect with whatever changed over time;
 * the estimate stays the one that stopped placement. Pure but not thread-safe: the adapter calls it from one thread
 * or under one lock.
 */
public final class Measurement
{
    /** Units kept for the estimate; later ones are counted only, so a long run's memory stays bounded (some 50 MB). */
    public static final int MAX_UNITS = 1_000_000;

    private final MeasurementPlan plan;
    private final StratifiedArmEstimator estimator;
    private final List<UnitObservation> units = new ArrayList<>();
    private final List<LeftOutUnit> leftOut = new ArrayList<>();
    private PlacementGuard guard;
    private ArmEstimate estimate;
    private boolean stale;
    private long unitsAfterStop;
    private long unitsBeyondLimit;

    public Measurement(MeasurementPlan plan)
    {
        this.plan = requireNonNull(plan, "plan is null");
        this.estimator = plan.estimator();
        this.guard = PlacementGuard.start(plan.guard());
        this.estimate = estimator.estimate(List.of());
    }

    public MeasurementPlan plan()
    {
        return plan;
    }

    public void record(UnitObservation unit)
    {
        requireNonNull(unit, "unit is null");
        if (!guard.placing()) {
            unitsAfterStop++;
        }
        else if (units.size() >= MAX_UNITS) {
            unitsBeyondLimit++;
        }
        else {
            units.add(unit);
            stale = true;
        }
    }

    /**
     * A unit the design left out (its arm is ambiguous): its work still counts in its stratum's size class
     * ({@link StratifiedArmEstimator#estimate(java.util.Collection, java.util.Collection)}). After the guard stopped
     * placement, or beyond {@link #MAX_UNITS}, it is dropped as compared units are.
     */
    public void recordLeftOut(LeftOutUnit unit)
    {
        requireNonNull(unit, "unit is null");
        if (guard.placing() && leftOut.size() < MAX_UNITS) {
            leftOut.add(unit);
            stale = true;
        }
    }

    /** The outcome of an {@link #update()}: the directive, and the guard's stop if this update stopped placement. */
    public record Update(Directive directive, Optional<GuardStop> stoppedNow)
    {
        public Update
        {
            requireNonNull(directive, "directive is null");
            requireNonNull(stoppedNow, "stoppedNow is null");
        }
    }

    public Update update()
    {
        if (stale) {
            estimate = estimator.estimate(units, leftOut);
            stale = false;
        }
        boolean wasPlacing = guard.placing();
        guard = guard.look(estimate);
        Optional<GuardStop> stoppedNow = wasPlacing ? guard.stop() : Optional.empty();
        return new Update(directive(), stoppedNow);
    }

    /** What the placing side does now, as of the last {@link #update()}. */
    public Directive directive()
    {
        if (!plan.enabled()) {
            return new Directive(0, true);
        }
        if (!guard.placing()) {
            return new Directive(0, false);
        }
        return new Directive(plan.controlShare().share(estimate, guard.mode() == GuardMode.AUTO), true);
    }

    /** The estimate as of the last {@link #update()}. */
    public ArmEstimate estimate()
    {
        return estimate;
    }

    public PlacementGuard guard()
    {
        return guard;
    }

    public long unitsAfterStop()
    {
        return unitsAfterStop;
    }

    public long unitsBeyondLimit()
    {
        return unitsBeyondLimit;
    }
}
