package io.chiplet.affinity;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The operating system's reason for a failed lease-file operation, in words. The JDK's
 * {@link AccessDeniedException} carries only the path; a user sharing a lease directory needs to know it was a
 * permission, whose file it is and what to change.
 */
final class LeaseFileErrors
{
    private LeaseFileErrors() {}

    static String reason(IOException e, Path path)
    {
        if (e instanceof AccessDeniedException) {
            return "permission denied (EACCES) for uid " + currentUid() + ownership(path) + ownership(path.getParent())
                    + "; a shared lease directory must be mode 1777 and its files 0666 (chmod 1777 DIR; chmod 0666 DIR/*.lock DIR/leases.guard),"
                    + " or choose another directory";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory (ENOENT)";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** " (PATH: owner uid U, mode M)" when it can be read, else nothing. */
    private static String ownership(Path path)
    {
        if (path == null) {
            return "";
        }
        try {
            int uid = (int) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int mode = (int) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return "; " + path + ": owner uid " + uid + ", mode " + Integer.toOctalString(mode & 07777);
        }
        catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "";
        }
    }

    private static String currentUid()
    {
        try {
            return String.valueOf(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        }
        catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return System.getProperty("user.name", "?");
        }
    }
}
