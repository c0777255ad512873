package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.Directive;

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

    private MeasureMessages() {}

    public static String encode(ArmReport report)
    {
        StringBuilder arms = new StringBuilder();
        report.arms().forEach((task, drawn) -> arms.append(arms.length() == 0 ? "" : ",").append(task).append(':')
                .append(drawn.arm() == Arm.PLACED ? 'p' : 'c').append(ArmAssignment.blockSize(drawn.controlShare())));
        return String.join("\t", VERSION, ARMS, URLEncoder.encode(report.executorId(), StandardCharsets.UTF_8), Long.toString(report.pluginCpuNanos()), arms);
    }

    public static String encode(Directive directive)
    {
        return String.join("\t", VERSION, DIRECTIVE, String.format(Locale.ROOT, "%.6f", directive.controlShare()), directive.placing() ? "placing" : "stopped");
    }

    /** An {@link ArmReport} or {@link Directive}; empty for any other message, which is then not the measurement's. */
    public static Optional<Object> decode(Object message)
    {
        if (!(message instanceof String text) || !text.startsWith(VERSION + "\t")) {
            return Optional.empty();
        }
        String[] fields = text.split("\t", -1);
        try {
            if (fields[1].equals(ARMS) && fields.length == 5) {
                Map<Long, DrawnArm> arms = new HashMap<>();
                if (!fields[4].isEmpty()) {
                    for (String entry : fields[4].split(",")) {
                        int colon = entry.indexOf(':');
                        int block = Integer.parseInt(entry.substring(colon + 2));
                        arms.put(Long.parseLong(entry.substring(0, colon)), new DrawnArm(entry.charAt(colon + 1) == 'p' ? Arm.PLACED : Arm.CONTROL, block == 0 ? 0 : 1.0 / block));
                    }
                }
                return Optional.of(new ArmReport(URLDecoder.decode(fields[2], StandardCharsets.UTF_8), Long.parseLong(fields[3]), arms));
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
