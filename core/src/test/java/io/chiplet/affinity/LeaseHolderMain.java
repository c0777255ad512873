package io.chiplet.affinity;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A child JVM for {@link ChipletLeasesTest}: leases {@code args[1]} chiplets of {@link LeaseFixture} in directory
 * {@code args[0]}, prints one line per lease ({@code LEASED <id> exclusive} or {@code LEASED <id> shared <others>}),
 * then {@code READY}, and holds them until its standard input closes.
 */
public final class LeaseHolderMain
{
    private LeaseHolderMain() {}

    public static void main(String[] args)
            throws IOException
    {
        try (ChipletLeases leases = ChipletLeases.open(Path.of(args[0]), LeaseFixture.CHIPLETS, LeaseFixture.TOPOLOGY);
                ChipletLeases.LeaseSet set = leases.acquire(Integer.parseInt(args[1]))) {
            for (ChipletLease lease : set.leases()) {
                System.out.println("LEASED " + lease.chiplet().id() + (lease.shared() ? " shared " + lease.otherHolders() : " exclusive"));
            }
            System.out.println("READY");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold until the parent closes our stdin or kills us
            }
        }
    }
}
