package io.chiplet.spark.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** The docs pages (Markdown) the jar carries under {@code io/chiplet/docs/}, which the tab's links open. */
final class ChipletDocs
{
    /** Where the page's links to the docs point: beside the tab. */
    static final String BASE = "docs/";

    private ChipletDocs() {}

    /** The page {@code name} ({@code measuring.md}); empty for any other name or one the jar lacks. */
    static Optional<String> page(String name)
    {
        if (!name.matches("[a-z0-9-]+\\.md")) {
            return Optional.empty();
        }
        try (InputStream in = ChipletDocs.class.getResourceAsStream("/io/chiplet/docs/" + name)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
