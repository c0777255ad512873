package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.Directive;
import io.chiplet.measure.DrawnArm;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.spark.placement.TaskPlacement;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.List;
import java.util.OptionalInt;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A task placement with a control arm: each task's arm is core's seeded draw for its stage and partition under the
 * driver's latest {@link Directive}; a placed task goes through the placement, a control task runs exactly as without
 * the plugin (its thread's own mask, no memory policy: the placement is not called at all). Each task's arm is
 * handed to {@code arms} for the driver, and the hooks' CPU time to {@link OwnCpu}.
 */
public final class MeasuredTaskPlacement
        implements TaskPlacement
{
    /** A control task's handle: nothing to undo. */
    static final Handle CONTROL = OptionalInt::empty;

    private final TaskPlacement placement;
    private final Function<TaskIdentity, DrawnArm> draw;
    private final BiConsumer<Long, DrawnArm> arms;
    private final OwnCpu cpu;
    private final EffectInjector injector;

    /** Task mode: each task's arm drawn by its stage and partition under the latest directive. */
    MeasuredTaskPlacement(TaskPlacement placement, ArmAssignment assignment, Supplier<Directive> directive, BiConsumer<Long, DrawnArm> arms, OwnCpu cpu, EffectInjector injector)
    {
        this(placement, perTask(assignment, directive), arms, cpu, injector);
    }

    /**
     * @param draw each task's arm: per task in task mode, the executor's own for every task in executor mode
     */
    MeasuredTaskPlacement(TaskPlacement placement, Function<TaskIdentity, DrawnArm> draw, BiConsumer<Long, DrawnArm> arms, OwnCpu cpu, EffectInjector injector)
    {
        this.placement = requireNonNull(placement, "placement is null");
        this.draw = requireNonNull(draw, "draw is null");
        this.arms = requireNonNull(arms, "arms is null");
        this.cpu = requireNonNull(cpu, "cpu is null");
        this.injector = requireNonNull(injector, "injector is null");
    }

    private static Function<TaskIdentity, DrawnArm> perTask(ArmAssignment assignment, Supplier<Directive> directive)
    {
        requireNonNull(assignment, "assignment is null");
        requireNonNull(directive, "directive is null");
        return task -> directive.get().draw(assignment, task.stageId(), Math.max(0, task.partitionId()));
    }

    @Override
    public Handle onTaskStart(TaskIdentity task)
    {
        long started = cpu.hookStarted();
        DrawnArm drawn = draw.apply(task);
        Arm arm = drawn.arm();
        // Intention to treat: a placed task counts as placed even when the placement finds no free slot for it.
        Handle handle = arm == Arm.PLACED ? placement.onTaskStart(task) : CONTROL;
        arms.accept(task.taskAttemptId(), drawn);
        injector.taskStarted(arm);
        cpu.hookEnded(started);
        return handle;
    }

    @Override
    public void onTaskEnd(Handle handle)
    {
        if (handle == CONTROL) {
            return;
        }
        long started = cpu.hookStarted();
        placement.onTaskEnd(handle);
        cpu.hookEnded(started);
    }

    @Override
    public void taskRead(Handle handle, long exchangeBytesRead, long sourceBytesRead)
    {
        if (handle != CONTROL) {
            placement.taskRead(handle, exchangeBytesRead, sourceBytesRead);
        }
    }

    @Override
    public PartitionBasis summary(Topology topology)
    {
        return placement.summary(topology);
    }

    @Override
    public boolean holdsOwnChiplets()
    {
        return placement.holdsOwnChiplets();
    }

    @Override
    public void allowedCpusChanged(CpuSet nowAllowed)
    {
        placement.allowedCpusChanged(nowAllowed);
    }

    @Override
    public List<Integer> chipletIds(List<Integer> usable)
    {
        return placement.chipletIds(usable);
    }

    /** The placement whose tasks are measured. */
    public TaskPlacement placement()
    {
        return placement;
    }

    @Override
    public void close()
    {
        placement.close();
    }
}
