package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.Directive;
import io.chiplet.measure.SwitchbackSchedule;
import io.chiplet.wire.Unreadable;
import io.chiplet.wire.WireFormatException;
import io.chiplet.wire.WireMessage;
import io.chiplet.measure.WindowSteps;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The measurement's messages, in core's wire format ({@link WireMessage}, the one {@code PluginMessages} uses, with
 * kinds of their own) for the same reason: an executor may decode no class of ours. Control shares travel exactly
 * (a share of 0.3 comes back as 0.3, not as the 1 in 3 its block size would say). Pure.
 */
public final class MeasureMessages
{
    private static final String ARMS = "arms";
    private static final String DIRECTIVE = "directive";
    private static final String EXECUTOR_ARM_REQUEST = "executor-arm-request";
    private static final String EXECUTOR_ARM = "executor-arm";
    private static final Set<String> KINDS = Set.of(ARMS, DIRECTIVE, EXECUTOR_ARM_REQUEST, EXECUTOR_ARM);
    private static final Map<String, Arm> ARM_WORDS = Map.of("placed", Arm.PLACED, "control", Arm.CONTROL);
    private static final Map<String, Boolean> PLACING = Map.of("placing", true, "stopped", false);
    private static final Map<String, Boolean> ONE_L3 = Map.of("one-l3", true, "l3s", false);

    private MeasureMessages() {}

    public static String encode(ArmReport report)
    {
        // task:<p|c><share>[@window][/w|/s]: arm, the share it was drawn at (exact), window, left out (washout, spanning).
        StringBuilder arms = new StringBuilder();
        report.arms().forEach((task, arm) -> {
            DrawnArm drawn = arm.drawn();
            arms.append(arms.length() == 0 ? "" : ",").append(task).append(':').append(drawn.arm() == Arm.PLACED ? 'p' : 'c').append(WireMessage.share(drawn.controlShare()));
            if (arm.window() != TaskArm.NO_WINDOW) {
                arms.append('@').append(arm.window());
            }
            arm.exclusion().ifPresent(exclusion -> arms.append(exclusion == SwitchbackSchedule.Exclusion.WASHOUT ? "/w" : "/s"));
        });
        return WireMessage.writer(ARMS).text(report.executorId()).number(report.pluginCpuNanos()).raw(arms.toString()).text(report.hostKey())
                .word(report.oneL3() ? "one-l3" : "l3s").encode();
    }

    public static String encode(Directive directive)
    {
        return WireMessage.writer(DIRECTIVE).share(directive.controlShare()).word(directive.placing() ? "placing" : "stopped").encode();
    }

    /** A directive with the window lengths in force (the switchback design's reply). */
    public static String encode(HostDirective reply)
    {
        Directive directive = reply.directive();
        return WireMessage.writer(DIRECTIVE).share(directive.controlShare()).word(directive.placing() ? "placing" : "stopped").raw(reply.steps().encode()).encode();
    }

    public static String encode(ExecutorArmRequest request)
    {
        return WireMessage.writer(EXECUTOR_ARM_REQUEST).text(request.executorId()).encode();
    }

    /** The driver's answer to an {@link ExecutorArmRequest}: the executor's arm with the share it was drawn at. */
    public static String encode(DrawnArm executorArm)
    {
        return WireMessage.writer(EXECUTOR_ARM).word(executorArm.arm() == Arm.PLACED ? "placed" : "control").share(executorArm.controlShare()).encode();
    }

    /**
     * An {@link ArmReport}, {@link Directive}, {@link HostDirective}, {@link ExecutorArmRequest} or {@link DrawnArm}; an {@link Unreadable}
     * naming the message and field for a measurement message that does not read; empty for any other message, which
     * is then not the measurement's.
     */
    public static Optional<Object> decode(Object message)
    {
        WireMessage wire;
        try {
            wire = WireMessage.parse(message);
        }
        catch (WireFormatException e) {
            return Optional.empty();
        }
        if (!KINDS.contains(wire.kind())) {
            return Optional.empty();
        }
        try {
            return Optional.of(switch (wire.kind()) {
                case ARMS -> {
                    wire.expect("executor", "plugin CPU nanoseconds", "arms", "host", "L3s");
                    Map<Long, TaskArm> arms = new HashMap<>();
                    String field = wire.raw(2, "arms");
                    if (!field.isEmpty()) {
                        for (String entry : field.split(",", -1)) {
                            int colon = entry.indexOf(':');
                            try {
                                arms.put(Long.parseLong(entry.substring(0, colon)), taskArm(entry.substring(colon + 1)));
                            }
                            catch (RuntimeException e) {
                                throw wire.malformed("arms", "task:<p|c><share>[@window][/w|/s], comma-separated", entry);
                            }
                        }
                    }
                    yield new ArmReport(wire.text(0, "executor"), wire.number(1, "plugin CPU nanoseconds"), arms, wire.text(3, "host"),
                            wire.word(4, "L3s", ONE_L3));
                }
                case EXECUTOR_ARM_REQUEST -> new ExecutorArmRequest(wire.expect("executor").text(0, "executor"));
                case EXECUTOR_ARM -> new DrawnArm(wire.expect("arm", "control share").word(0, "arm", ARM_WORDS), wire.share(1, "control share"));
                default -> wire.size() == 3
                        ? new HostDirective(new Directive(wire.expect("control share", "placing", "window steps").share(0, "control share"), wire.word(1, "placing", PLACING)),
                                windowSteps(wire))
                        : new Directive(wire.expect("control share", "placing").share(0, "control share"), wire.word(1, "placing", PLACING));
            });
        }
        catch (WireFormatException e) {
            return Optional.of(e.unreadable());
        }
        catch (RuntimeException e) {
            // a record refusing what the fields hold (a share above the most a control arm may have)
            return Optional.of(new Unreadable("malformed " + wire.kind() + " message (" + e.getMessage() + ")"));
        }
    }

    private static WindowSteps windowSteps(WireMessage wire)
    {
        String field = wire.raw(2, "window steps");
        try {
            return WindowSteps.parse(field);
        }
        catch (RuntimeException e) {
            throw wire.malformed("window steps", "window steps as WindowSteps writes them", field);
        }
    }

    private static TaskArm taskArm(String text)
    {
        Optional<SwitchbackSchedule.Exclusion> exclusion = text.endsWith("/w") ? Optional.of(SwitchbackSchedule.Exclusion.WASHOUT)
                : text.endsWith("/s") ? Optional.of(SwitchbackSchedule.Exclusion.SPANNING) : Optional.empty();
        String arm = exclusion.isPresent() ? text.substring(0, text.length() - 2) : text;
        int at = arm.indexOf('@');
        if (arm.charAt(0) != 'p' && arm.charAt(0) != 'c') {
            throw new IllegalArgumentException("not an arm: " + text);
        }
        double share = Double.parseDouble(arm.substring(1, at < 0 ? arm.length() : at));
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("not a share: " + text);
        }
        long window = at < 0 ? TaskArm.NO_WINDOW : Long.parseLong(arm.substring(at + 1));
        return new TaskArm(new DrawnArm(arm.charAt(0) == 'p' ? Arm.PLACED : Arm.CONTROL, share), window, exclusion);
    }
}
