package io.chiplet.measure;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArmAssignmentTest
{
    @Property(seed = "20261128")
    void everyFullBlockHasExactlyOneControl(@ForAll long seed, @ForAll @IntRange(min = 0, max = 10_000) int stage, @ForAll @DoubleRange(min = 0.01, max = 0.5) double share)
    {
        ArmAssignment assignment = new ArmAssignment(seed);
        int block = ArmAssignment.blockSize(share);
        for (int start = 0; start < 5 * block; start += block) {
            int first = start;
            long controls = IntStream.range(first, first + block).filter(unit -> assignment.of(stage, unit, share) == Arm.CONTROL).count();
            assertThat(controls).isEqualTo(1);
        }
    }

    @Property(seed = "20261128")
    void aStageOfOneBlockOrMoreHasBothArms(@ForAll long seed, @ForAll @IntRange(min = 10, max = 500) int tasks)
    {
        ArmAssignment assignment = new ArmAssignment(seed);
        long controls = IntStream.range(0, tasks).filter(unit -> assignment.of(3, unit, 0.10) == Arm.CONTROL).count();
        assertThat(controls).isBetween((long) tasks / 10, (long) tasks / 10 + 1).isLessThan(tasks);
    }

    @Test
    void theDrawIsSeededAndVariesWithSeedAndStage()
    {
        ArmAssignment one = new ArmAssignment(42);
        String arms = arms(one, 7);
        assertThat(arms(new ArmAssignment(42), 7)).isEqualTo(arms);
        assertThat(arms(new ArmAssignment(43), 7)).isNotEqualTo(arms);
        assertThat(arms(one, 8)).isNotEqualTo(arms);
    }

    @Test
    void theControlPositionIsUniformWithinBlocks()
    {
        ArmAssignment assignment = new ArmAssignment(1);
        int[] positions = new int[10];
        for (int block = 0; block < 20_000; block++) {
            for (int position = 0; position < 10; position++) {
                if (assignment.of(5, block * 10L + position, 0.1) == Arm.CONTROL) {
                    positions[position]++;
                }
            }
        }
        // 2000 expected per position; a binomial's standard deviation is 42.
        assertThat(java.util.Arrays.stream(positions).boxed().toList()).allSatisfy(count -> assertThat(count).isBetween(1830, 2170));
    }

    @Test
    void noShareNoControl()
    {
        assertThat(IntStream.range(0, 1000).mapToObj(unit -> new ArmAssignment(9).of(1, unit, 0))).containsOnly(Arm.PLACED);
        assertThat(new Directive(0.1, false).arm(new ArmAssignment(9), 1, 1)).isEqualTo(Arm.CONTROL);
    }

    @Test
    void sharesOutsideZeroToAHalfAreRefused()
    {
        assertThatThrownBy(() -> ArmAssignment.blockSize(0.6)).hasMessageContaining("from 0 to 0.5");
        assertThatThrownBy(() -> ArmAssignment.blockSize(-0.1)).hasMessageContaining("got -0.1");
        assertThatThrownBy(() -> new ArmAssignment(1).of(1, -1, 0.1)).hasMessageContaining("0 or more");
    }

    @Test
    void switchbackWindowsAlternateInRandomOrderAndLeaveOutWorkSpanningBoth()
    {
        SwitchbackWindows windows = new SwitchbackWindows(new ArmAssignment(3), 1000);
        // Every pair of windows has one of each arm at share 0.5.
        for (long pair = 0; pair < 100; pair++) {
            assertThat(windows.armAt(2, pair * 2000, 0.5)).isNotEqualTo(windows.armAt(2, pair * 2000 + 1000, 0.5));
        }
        assertThat(windows.armOf(2, 10_100, 10_900, 0.5)).contains(windows.armAt(2, 10_100, 0.5));
        assertThat(windows.armOf(2, 10_100, 11_100, 0.5)).isEmpty();
        assertThat(windows.nextWindowStart(10_100)).isEqualTo(11_000);
        assertThatThrownBy(() -> windows.armOf(2, 5, 4, 0.5)).hasMessageContaining("before it starts");
    }

    private static String arms(ArmAssignment assignment, int stage)
    {
        StringBuilder arms = new StringBuilder();
        IntStream.range(0, 200).forEach(unit -> arms.append(assignment.of(stage, unit, 0.1) == Arm.CONTROL ? 'c' : 'p'));
        return arms.toString();
    }
    @Property(seed = "20261128")
    void theFirstProcessIsAlwaysPlacedAndEachBlockOfLaterOnesHasOneControl(@ForAll long seed, @ForAll @DoubleRange(min = 0.01, max = 0.5) double share)
    {
        ArmAssignment assignment = new ArmAssignment(seed);
        int block = ArmAssignment.blockSize(share);
        assertThat(assignment.ofProcess(0, share)).isEqualTo(Arm.PLACED);
        for (int start = 1; start < 1 + 4 * block; start += block) {
            int first = start;
            assertThat(IntStream.range(first, first + block).filter(ordinal -> assignment.ofProcess(ordinal, share) == Arm.CONTROL).count()).isEqualTo(1);
        }
    }

    @Test
    void twoProcessesAtAHalfHaveBothArmsAndAProcessesDrawDiffersFromAStages()
    {
        ArmAssignment assignment = new ArmAssignment(7);
        assertThat(assignment.ofProcess(0, 0.5)).isEqualTo(Arm.PLACED);
        assertThat(IntStream.range(1, 3).filter(ordinal -> assignment.ofProcess(ordinal, 0.5) == Arm.CONTROL).count()).isEqualTo(1);
        assertThat(assignment.ofProcess(5, 0)).isEqualTo(Arm.PLACED);
        assertThat(new Directive(0.5, false).drawProcess(assignment, 0)).isEqualTo(new DrawnArm(Arm.CONTROL, 0));
        assertThat(new Directive(0.1, true).drawProcess(assignment, 0)).isEqualTo(new DrawnArm(Arm.PLACED, 0.1));
        assertThatThrownBy(() -> assignment.ofProcess(-1, 0.1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("process number");
    }
}
