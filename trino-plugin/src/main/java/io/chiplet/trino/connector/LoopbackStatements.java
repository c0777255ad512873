package io.chiplet.trino.connector;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Runs one statement on this coordinator through Trino's client protocol ({@code POST /v1/statement}, then
 * {@code nextUri} until the query finishes), as user {@code chiplet} with source {@link #SOURCE}, and returns its
 * rows with every value as text. Trino's SPI gives the coordinator no other way to hear from the workers: what a
 * worker's split produces goes to the query's client, so the coordinator's catalog is that client. Bounded: every
 * request times out, and a query that does not finish within {@link #QUERY_LIMIT} is abandoned (Trino cancels it
 * when its client stops asking).
 */
final class LoopbackStatements
        implements WorkerReportCollector.Statements
{
    static final String SOURCE = "chiplet-worker-reports";
    static final String USER = "chiplet";
    private static final Duration REQUEST_LIMIT = Duration.ofSeconds(10);
    private static final Duration QUERY_LIMIT = Duration.ofSeconds(60);
    private static final JsonFactory JSON = new JsonFactory();

    private final URI coordinator;
    private final String source;
    private final HttpClient http;

    LoopbackStatements(URI coordinator)
    {
        this(coordinator, SOURCE);
    }

    /** @param source the client source the statements run with: the plugin's own are never measured */
    LoopbackStatements(URI coordinator, String source)
    {
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.source = requireNonNull(source, "source is null");
        this.http = HttpClient.newBuilder().connectTimeout(REQUEST_LIMIT).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public List<List<String>> rows(String sql)
            throws IOException, InterruptedException
    {
        requireNonNull(sql, "sql is null");
        HttpRequest request = HttpRequest.newBuilder(coordinator.resolve("/v1/statement"))
                .timeout(REQUEST_LIMIT)
                .header("X-Trino-User", USER)
                .header("X-Trino-Source", source)
                .POST(HttpRequest.BodyPublishers.ofString(sql))
                .build();
        List<List<String>> rows = new ArrayList<>();
        long deadline = System.nanoTime() + QUERY_LIMIT.toNanos();
        while (true) {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException("%s answered HTTP %d to the chiplet catalog's status query: %s".formatted(request.uri(), response.statusCode(),
                        response.body().lines().findFirst().orElse("")));
            }
            Optional<String> next = readPage(response.body(), rows);
            if (next.isEmpty()) {
                return rows;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the chiplet catalog's status query did not finish within " + QUERY_LIMIT.toSeconds() + " s");
            }
            request = HttpRequest.newBuilder(URI.create(next.get())).timeout(REQUEST_LIMIT).header("X-Trino-User", USER).GET().build();
        }
    }

    /**
     * Adds one response's {@code data} rows to {@code rows}; returns its {@code nextUri}, empty when the query is done.
     *
     * @throws IOException with Trino's message where the query failed
     */
    static Optional<String> readPage(String body, List<List<String>> rows)
            throws IOException
    {
        Optional<String> next = Optional.empty();
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a Trino query result: " + body.lines().findFirst().orElse(""));
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "nextUri" -> next = Optional.of(parser.getText());
                    case "data" -> readData(parser, rows);
                    case "error" -> throw new IOException("the chiplet catalog's status query failed: " + errorMessage(parser));
                    default -> {
                        if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                            parser.skipChildren();
                        }
                    }
                }
            }
        }
        return next;
    }

    private static void readData(JsonParser parser, List<List<String>> rows)
            throws IOException
    {
        while (parser.nextToken() == JsonToken.START_ARRAY) {
            List<String> row = new ArrayList<>();
            for (JsonToken cell = parser.nextToken(); cell != JsonToken.END_ARRAY; cell = parser.nextToken()) {
                if (cell == JsonToken.START_OBJECT || cell == JsonToken.START_ARRAY) {
                    parser.skipChildren();
                    row.add(null);
                }
                else {
                    row.add(cell == JsonToken.VALUE_NULL ? null : parser.getText());
                }
            }
            rows.add(Arrays.asList(row.toArray(String[]::new)));
        }
    }

    private static String errorMessage(JsonParser parser)
            throws IOException
    {
        String message = "(no message)";
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (field.equals("message")) {
                message = parser.getText();
            }
            else if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                parser.skipChildren();
            }
        }
        return message;
    }
}
