package io.chiplet.failopen;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailOpenSwitchTest
{
    private final List<String> warnings = new ArrayList<>();
    private final List<String> infos = new ArrayList<>();
    private final List<String> toldOff = new ArrayList<>();
    private final FailOpenSwitch failOpen = new FailOpenSwitch(recordingLogger(), "Chiplet plugin disabled on the driver", "Spark runs as without it", toldOff::add);

    @Test
    void theFirstFailureWarnsOnceAndSwitchesThePartOff()
    {
        assertThat(failOpen.call("driver start", () -> 7, -1)).isEqualTo(7);
        assertThat(failOpen.call("driver start", () -> {
            throw new IllegalStateException("no sysfs");
        }, -1)).isEqualTo(-1);
        assertThat(failOpen.active()).isFalse();
        AtomicInteger ranWhileOff = new AtomicInteger();
        failOpen.run("driver receive", ranWhileOff::incrementAndGet);
        assertThat(ranWhileOff).hasValue(0);
        failOpen.disable("again");
        assertThat(warnings).containsExactly("Chiplet plugin disabled on the driver, Spark runs as without it: driver start failed: java.lang.IllegalStateException: no sysfs");
        assertThat(toldOff).containsExactly("Spark runs as without it: driver start failed: java.lang.IllegalStateException: no sysfs");
    }

    @Test
    void undoingRunsEvenWhenOff()
    {
        failOpen.disableQuietly("Chiplet plugin off on the driver: spark.chiplet.enabled=false");
        AtomicInteger restored = new AtomicInteger();
        failOpen.runAlways("restore thread", restored::incrementAndGet);
        assertThat(restored).hasValue(1);
        assertThat(warnings).isEmpty();
        assertThat(infos).containsExactly("Chiplet plugin off on the driver: spark.chiplet.enabled=false");
    }

    @Test
    void linkageErrorsAndOurStackOverflowsAreOursTheJvmsErrorsAreNot()
    {
        assertThat(failOpen.call("task start", () -> {
            throw new NoSuchMethodError("io.trino.spi.Plugin.getFoo");
        }, "off")).isEqualTo("off");
        FailOpenSwitch other = new FailOpenSwitch(recordingLogger(), "chiplet session defaults off", "Trino's own defaults apply", cause -> {});
        assertThat(other.call("recursion", () -> {
            throw new StackOverflowError();
        }, "off")).isEqualTo("off");
        FailOpenSwitch third = new FailOpenSwitch(recordingLogger(), "x off", "y", cause -> {});
        assertThatThrownBy(() -> third.call("allocation", () -> {
            throw new OutOfMemoryError("Java heap space");
        }, "off")).isInstanceOf(OutOfMemoryError.class);
        assertThat(third.active()).isTrue();
        assertThat(warnings).hasSize(2).last().asString().startsWith("chiplet session defaults off, Trino's own defaults apply: recursion failed: java.lang.StackOverflowError");
    }

    private Logger recordingLogger()
    {
        return (Logger) Proxy.newProxyInstance(Logger.class.getClassLoader(), new Class<?>[] {Logger.class}, (proxy, method, args) -> {
            if ((method.getName().equals("warn") || method.getName().equals("info")) && args != null && args[0] instanceof String format) {
                Object[] values = args.length == 2 && args[1] instanceof Object[] array ? array : java.util.Arrays.copyOfRange(args, 1, args.length);
                String line = format;
                for (Object value : values) {
                    line = line.replaceFirst("\\{}", java.util.regex.Matcher.quoteReplacement(String.valueOf(value)));
                }
                (method.getName().equals("warn") ? warnings : infos).add(line);
            }
            return method.getReturnType() == boolean.class ? false : null;
        });
    }
}
