package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.Directive;
import io.chiplet.measure.SwitchbackSchedule;
import io.chiplet.measure.WindowSteps;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The measurement's messages, plain strings in the format of {@code PluginMessages} (same version field, kinds of
 * their own) for the same reason: an executor may decode no class of ours. Pure.
 */
public final class MeasureMessages
{
    private static final String VERSION = "chiplet/1";
    private static final String ARMS = "arms";
    private static final String DIRECTIVE = "directive";
    private static final String EXECUTOR_ARM_REQUEST = "executor-arm-request";
    private static final String EXECUTOR_ARM = "executor-arm";

    private MeasureMessages() {}

    public static String encode(ArmReport report)
    {
        // task:<p|c><block>[@window][/w|/s]: arm, share as its block, window, left out (washout, spanning).
        StringBuilder arms = new StringBuilder();
        report.arms().forEach((task, arm) -> {
            DrawnArm drawn = arm.drawn();
            arms.append(arms.length() == 0 ? "" : ",").append(task).append(':').append(drawn.arm() == Arm.PLACED ? 'p' : 'c').append(ArmAssignment.blockSize(drawn.controlShare()));
            if (arm.window() != TaskArm.NO_WINDOW) {
                arms.append('@').append(arm.window());
            }
            arm.exclusion().ifPresent(exclusion -> arms.append(exclusion == SwitchbackSchedule.Exclusion.WASHOUT ? "/w" : "/s"));
        });
        return String.join("\t", VERSION, ARMS, URLEncoder.encode(report.executorId(), StandardCharsets.UTF_8), Long.toString(report.pluginCpuNanos()), arms,
                URLEncoder.encode(report.hostKey(), StandardCharsets.UTF_8), report.oneL3() ? "one-l3" : "l3s");
    }

    public static String encode(Directive directive)
    {
        return String.join("\t", VERSION, DIRECTIVE, String.format(Locale.ROOT, "%.6f", directive.controlShare()), directive.placing() ? "placing" : "stopped");
    }

    /** A directive with the window lengths in force (the switchback design's reply). */
    public static String encode(HostDirective reply)
    {
        return String.join("\t", encode(reply.directive()), reply.steps().encode());
    }

    public static String encode(ExecutorArmRequest request)
    {
        return String.join("\t", VERSION, EXECUTOR_ARM_REQUEST, URLEncoder.encode(request.executorId(), StandardCharsets.UTF_8));
    }

    /** The driver's answer to an {@link ExecutorArmRequest}: the executor's arm with the share it was drawn at. */
    public static String encode(DrawnArm executorArm)
    {
        return String.join("\t", VERSION, EXECUTOR_ARM, executorArm.arm() == Arm.PLACED ? "placed" : "control", Integer.toString(ArmAssignment.blockSize(executorArm.controlShare())));
    }

    private static TaskArm taskArm(String text)
    {
        Optional<SwitchbackSchedule.Exclusion> exclusion = text.endsWith("/w") ? Optional.of(SwitchbackSchedule.Exclusion.WASHOUT)
                : text.endsWith("/s") ? Optional.of(SwitchbackSchedule.Exclusion.SPANNING) : Optional.empty();
        String arm = exclusion.isPresent() ? text.substring(0, text.length() - 2) : text;
        int at = arm.indexOf('@');
        int block = Integer.parseInt(arm.substring(1, at < 0 ? arm.length() : at));
        long window = at < 0 ? TaskArm.NO_WINDOW : Long.parseLong(arm.substring(at + 1));
        if (arm.charAt(0) != 'p' && arm.charAt(0) != 'c') {
            throw new IllegalArgumentException("not an arm: " + text);
        }
        return new TaskArm(new DrawnArm(arm.charAt(0) == 'p' ? Arm.PLACED : Arm.CONTROL, block == 0 ? 0 : 1.0 / block), window, exclusion);
    }

    /** An {@link ArmReport}, {@link Directive}, {@link HostDirective}, {@link ExecutorArmRequest} or {@link DrawnArm}; empty for any other message, which is then not the measurement's. */
    public static Optional<Object> decode(Object message)
    {
        if (!(message instanceof String text) || !text.startsWith(VERSION + "\t")) {
            return Optional.empty();
        }
        String[] fields = text.split("\t", -1);
        try {
            if (fields[1].equals(ARMS) && fields.length == 7) {
                Map<Long, TaskArm> arms = new HashMap<>();
                if (!fields[4].isEmpty()) {
                    for (String entry : fields[4].split(",")) {
                        arms.put(Long.parseLong(entry.substring(0, entry.indexOf(':'))), taskArm(entry.substring(entry.indexOf(':') + 1)));
                    }
                }
                return Optional.of(new ArmReport(URLDecoder.decode(fields[2], StandardCharsets.UTF_8), Long.parseLong(fields[3]), arms,
                        URLDecoder.decode(fields[5], StandardCharsets.UTF_8), fields[6].equals("one-l3")));
            }
            if (fields[1].equals(EXECUTOR_ARM_REQUEST) && fields.length == 3) {
                return Optional.of(new ExecutorArmRequest(URLDecoder.decode(fields[2], StandardCharsets.UTF_8)));
            }
            if (fields[1].equals(EXECUTOR_ARM) && fields.length == 4 && (fields[2].equals("placed") || fields[2].equals("control"))) {
                int block = Integer.parseInt(fields[3]);
                return Optional.of(new DrawnArm(fields[2].equals("placed") ? Arm.PLACED : Arm.CONTROL, block == 0 ? 0 : 1.0 / block));
            }
            if (fields[1].equals(DIRECTIVE) && fields.length == 5) {
                return Optional.of(new HostDirective(new Directive(Double.parseDouble(fields[2]), fields[3].equals("placing")), WindowSteps.parse(fields[4])));
            }
            if (fields[1].equals(DIRECTIVE) && fields.length == 4) {
                return Optional.of(new Directive(Double.parseDouble(fields[2]), fields[3].equals("placing")));
            }
        }
        catch (RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
