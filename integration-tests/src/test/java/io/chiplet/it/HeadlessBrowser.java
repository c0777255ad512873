package io.chiplet.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real browser without a screen: Debian's {@code chromium} (installed by {@code .ci/run}) in headless mode, for a
 * page's screenshot and its DOM as the browser rendered it. Tests that need one are skipped where none is installed.
 */
final class HeadlessBrowser
{
    private HeadlessBrowser() {}

    static Optional<Path> find()
    {
        return Stream.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome").map(Path::of).filter(Files::isExecutable).findFirst();
    }

    static Path require()
    {
        Optional<Path> found = find();
        assumeTrue(found.isPresent(), "no headless browser (chromium) on this machine");
        return found.get();
    }

    /** Renders {@code url} and saves a PNG of it; returns the DOM the browser built (scripts run). */
    static String screenshot(String url, Path png, int width, int height)
            throws IOException, InterruptedException
    {
        Path browser = require();
        Files.createDirectories(png.toAbsolutePath().getParent());
        Path profile = Files.createTempDirectory("chiplet-chromium-");
        run(List.of(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + profile,
                "--window-size=" + width + "," + height, "--screenshot=" + png.toAbsolutePath(), url), png.resolveSibling(png.getFileName() + ".log"));
        awaitFile(png);
        assertThat(png).as("screenshot of %s", url).isNotEmptyFile();
        Path dom = png.resolveSibling(png.getFileName() + ".html");
        run(List.of(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile, "--dump-dom", url), dom);
        return Files.readString(dom);
    }

    /**
     * Chromium may report the screenshot written and exit a moment before the file is visible under its name (seen
     * once in CI: the file was there, 159 kB, when the test had already failed); waits for it with a deadline.
     */
    private static void awaitFile(Path file)
            throws IOException, InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(Files.isRegularFile(file) && Files.size(file) > 0) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    private static void run(List<String> command, Path output)
            throws IOException, InterruptedException
    {
        Process process = new ProcessBuilder(command).redirectErrorStream(false).redirectOutput(output.toFile())
                .redirectError(output.resolveSibling(output.getFileName() + ".err").toFile()).start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IllegalStateException("'" + String.join(" ", command) + "' did not finish in 90 s");
        }
        assertThat(process.exitValue()).as("%s: %s", command, Files.readString(output.resolveSibling(output.getFileName() + ".err"))).isZero();
    }
}
