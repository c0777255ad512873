package io.chiplet.jmh;

/**
 * The {@code Main-Class} of {@code benchmarks.jar}: JMH's own {@code org.openjdk.jmh.Main}, reached through a class
 * compiled like the benchmarks. On a JDK older than the build's, JMH's main would start and every fork would fail to
 * load a benchmark, printing a stack trace each and exiting 0 with an empty table; this class fails to load first, so
 * {@code java -jar benchmarks.jar} on such a JDK exits 1 with the JVM's one-line "compiled by a more recent version of
 * the Java Runtime" error.
 */
public final class BenchmarksMain
{
    private BenchmarksMain() {}

    public static void main(String[] args)
            throws Exception
    {
        org.openjdk.jmh.Main.main(args);
    }
}
