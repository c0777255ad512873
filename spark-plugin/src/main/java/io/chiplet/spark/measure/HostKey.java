package io.chiplet.spark.measure;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What names this executor's host for its switchback windows: the same for every executor of the host, whatever
 * its container or JVM. The kernel's boot id (one per running kernel, shared by every container on it), else the
 * host name.
 */
public final class HostKey
{
    static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

    private HostKey() {}

    public static String live()
    {
        return of(BOOT_ID);
    }

    static String of(Path bootId)
    {
        try {
            String id = Files.readString(bootId).strip();
            if (!id.isEmpty()) {
                return "boot " + id;
            }
        }
        catch (IOException | RuntimeException e) {
            // No /proc (not Linux) or not readable: the host name below.
        }
        try {
            return "host " + InetAddress.getLocalHost().getHostName();
        }
        catch (IOException | RuntimeException e) {
            return "host unknown";
        }
    }
}
