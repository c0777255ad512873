package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.Directive;
import io.chiplet.measure.SwitchbackSchedule;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.spark.placement.TaskPlacement;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A task placement with a control arm: each task's arm is drawn at its start ({@link TaskArmDraw}: per host and window,
 * per task, or the executor's own, every draw core's); a placed task goes through the placement, a control task runs
 * exactly as without the plugin (its thread's own mask, no memory policy: the placement is not called at all). Each
 * task's arm is handed to {@code arms} for the driver at its end (with core's verdict on a task that spanned a switch of
 * windows), and the hooks' CPU time to {@link OwnCpu}.
 */
public final class MeasuredTaskPlacement
        implements TaskPlacement
{
    /** A task's handle with its arm: the placement's own for a placed task, {@link Handle#UNPLACED} for a control one. */
    record Measured(Handle inner, long taskAttemptId, SwitchbackSchedule.Start start)
            implements Handle
    {
        @Override
        public OptionalInt chiplet()
        {
            return inner.chiplet();
        }

        @Override
        public Optional<CpuSet> cpus()
        {
            return inner.cpus();
        }

        boolean placed()
        {
            return start.arm().arm() == Arm.PLACED;
        }

        @Override
        public String arm()
        {
            return placed() ? "placed" : "control";
        }
    }

    private final TaskPlacement placement;
    private final TaskArmDraw draw;
    private final BiConsumer<Long, TaskArm> arms;
    private final OwnCpu cpu;
    private final InjectedTaskDelay injector;

    /** Task-level arms: each task's arm drawn by its stage and partition under the latest directive. */
    MeasuredTaskPlacement(TaskPlacement placement, ArmAssignment assignment, Supplier<Directive> directive, BiConsumer<Long, TaskArm> arms, OwnCpu cpu, InjectedTaskDelay injector)
    {
        this(placement, TaskArmDraw.perTask(assignment, directive), arms, cpu, injector);
    }

    MeasuredTaskPlacement(TaskPlacement placement, TaskArmDraw draw, BiConsumer<Long, TaskArm> arms, OwnCpu cpu, InjectedTaskDelay injector)
    {
        this.placement = requireNonNull(placement, "placement is null");
        this.draw = requireNonNull(draw, "draw is null");
        this.arms = requireNonNull(arms, "arms is null");
        this.cpu = requireNonNull(cpu, "cpu is null");
        this.injector = requireNonNull(injector, "injector is null");
    }

    @Override
    public Handle onTaskStart(TaskIdentity task)
    {
        long started = cpu.hookStarted();
        SwitchbackSchedule.Start start = draw.start(task);
        Arm arm = start.arm().arm();
        // Intention to treat: a placed task counts as placed even when the placement finds no free slot for it.
        Handle handle = new Measured(arm == Arm.PLACED ? placement.onTaskStart(task) : Handle.UNPLACED, task.taskAttemptId(), start);
        injector.taskStarted(arm);
        cpu.hookEnded(started);
        return handle;
    }

    @Override
    public void onTaskEnd(Handle handle)
    {
        long started = cpu.hookStarted();
        if (handle instanceof Measured measured) {
            if (measured.placed()) {
                placement.onTaskEnd(measured.inner());
            }
            arms.accept(measured.taskAttemptId(), draw.end(measured.start()));
        }
        else {
            placement.onTaskEnd(handle);
        }
        cpu.hookEnded(started);
    }

    @Override
    public void taskRead(Handle handle, long exchangeBytesRead, long sourceBytesRead)
    {
        if (handle instanceof Measured measured) {
            if (measured.placed()) {
                placement.taskRead(measured.inner(), exchangeBytesRead, sourceBytesRead);
            }
        }
        else {
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
