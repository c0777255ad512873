package io.chiplet.spark.demo;

import org.apache.spark.launcher.JavaModuleOptions;

import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Prints the JVM options Spark's own launcher gives every JVM it starts ({@code --add-opens} and the like), for
 * {@code bin/chiplet demo}, which starts Spark without Spark's scripts. Two of them only make the JVM print a warning
 * line before the demo's output, so they are left out: an {@code --add-opens} of a package this JDK no longer has
 * ({@code sun.security.action} on JDK 25), and {@code --add-modules=jdk.incubator.vector} (the Vector API speeds up
 * Spark ML's BLAS, which TPC-H does not use; without it Spark falls back to plain Java).
 */
public final class SparkJvmOptions
{
    private static final Pattern OPENS = Pattern.compile("--add-(?:opens|exports)=([^/]+)/([^=]+)=.*");

    private SparkJvmOptions() {}

    public static void main(String[] args)
    {
        System.out.println(Arrays.stream(JavaModuleOptions.defaultModuleOptions().split(" "))
                .filter(option -> !option.isBlank())
                .filter(SparkJvmOptions::quiet)
                .collect(Collectors.joining(" ")));
    }

    /** Whether {@code option} starts the JVM without a warning line. */
    static boolean quiet(String option)
    {
        if (option.equals("--add-modules=jdk.incubator.vector")) {
            return false;
        }
        Matcher opens = OPENS.matcher(option);
        if (opens.matches()) {
            Optional<Module> module = ModuleLayer.boot().findModule(opens.group(1));
            return module.isPresent() && module.get().getPackages().contains(opens.group(2));
        }
        return true;
    }
}
