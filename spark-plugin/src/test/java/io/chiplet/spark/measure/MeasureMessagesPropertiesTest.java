package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.Directive;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.SwitchbackSchedule;
import io.chiplet.wire.Unreadable;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The measurement's messages decode to exactly what was encoded: the control share above all (0.3 stays 0.3). */
class MeasureMessagesPropertiesTest
{
    @Property(seed = "20261128")
    void directivesAndExecutorArmsKeepTheirShareExactly(@ForAll @DoubleRange(min = 0, max = ArmAssignment.MAX_CONTROL_SHARE) double share, @ForAll boolean placing,
            @ForAll Arm arm)
    {
        assertThat(MeasureMessages.decode(MeasureMessages.encode(new Directive(share, placing)))).contains(new Directive(share, placing));
        assertThat(MeasureMessages.decode(MeasureMessages.encode(new DrawnArm(arm, share)))).contains(new DrawnArm(arm, share));
    }

    @Property(seed = "20261128")
    void armReports(@ForAll("executors") String executor, @ForAll @LongRange(min = 0) long cpu, @ForAll("arms") Map<Long, TaskArm> arms,
            @ForAll("executors") String host, @ForAll boolean oneL3)
    {
        ArmReport report = new ArmReport(executor, cpu, arms, host, oneL3);
        assertThat(MeasureMessages.decode(MeasureMessages.encode(report))).contains(report);
    }

    @Provide
    Arbitrary<String> executors()
    {
        return Arbitraries.strings().ofMaxLength(20).filter(text -> text.codePoints().noneMatch(point -> point >= Character.MIN_SURROGATE && point <= Character.MAX_SURROGATE));
    }

    @Provide
    Arbitrary<Map<Long, TaskArm>> arms()
    {
        Arbitrary<TaskArm> arm = Combinators.combine(Arbitraries.of(Arm.class), Arbitraries.doubles().between(0, ArmAssignment.MAX_CONTROL_SHARE),
                Arbitraries.longs().between(TaskArm.NO_WINDOW, Long.MAX_VALUE), Arbitraries.of(SwitchbackSchedule.Exclusion.class).optional())
                .as((drawn, share, window, exclusion) -> new TaskArm(new DrawnArm(drawn, share), window, exclusion));
        return Arbitraries.maps(Arbitraries.longs().greaterOrEqual(0), arm).ofMaxSize(12);
    }

    @Test
    void aShareOf0point3ComesBackAs0point3AndBadMessagesSayWhich()
    {
        assertThat(MeasureMessages.decode(MeasureMessages.encode(new Directive(0.3, true)))).contains(new Directive(0.3, true));
        assertThat(MeasureMessages.decode(MeasureMessages.encode(new DrawnArm(Arm.CONTROL, 0.3)))).contains(new DrawnArm(Arm.CONTROL, 0.3));
        assertThat(MeasureMessages.decode("chiplet/2\tdirective\t0.9\tplacing")).get().isInstanceOf(Unreadable.class)
                .extracting(message -> ((Unreadable) message).why()).asString().startsWith("malformed directive message (");
        assertThat(MeasureMessages.decode("chiplet/2\tarms\tx\t1\t5:q0.1\th\tl3s")).get().extracting(message -> ((Unreadable) message).why()).asString()
                .startsWith("malformed arms message (field arms: expected task:<p|c><share>[@window][/w|/s], comma-separated, got '5:q0.1'");
        // other kinds are not the measurement's
        assertThat(MeasureMessages.decode("chiplet/2\thint-request\t1")).isEqualTo(Optional.empty());
    }
}
