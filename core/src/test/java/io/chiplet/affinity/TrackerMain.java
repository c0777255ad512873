package io.chiplet.affinity;

/** A child JVM for {@link PinnableCpusTrackerTest}: prints its allowed CPUs, then each change, checking every 20 ms. */
public final class TrackerMain
{
    private TrackerMain() {}

    public static void main(String[] args)
            throws InterruptedException
    {
        PinnableCpusTracker tracker = PinnableCpusTracker.live();
        System.out.println("START " + tracker.current().toList());
        System.out.flush();
        while (true) {
            tracker.check().ifPresent(change -> {
                System.out.println("CHANGE " + change.describe());
                System.out.flush();
            });
            Thread.sleep(20);
        }
    }
}
