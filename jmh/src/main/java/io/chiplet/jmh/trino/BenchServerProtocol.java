package io.chiplet.jmh.trino;

import io.chiplet.jmh.tpch.ResultFingerprints.Fingerprint;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The line protocol between the benchmark and its {@link TrinoBenchServer}s: the benchmark writes one command per line
 * to a server's standard input, the server answers each with one line on its standard output, tab-separated fields
 * after {@link #PREFIX} (Trino's logging also writes to standard output; a line without the prefix is not ours).
 * Pure: encoding and decoding only.
 *
 * <pre>
 * server, once started:   ready    SETTINGS  PLACEMENT
 * benchmark: query N      result   N  NANOS  ROWS  CHECKSUM
 * benchmark: status       status   PLACEMENT
 * benchmark: exit         (the server closes its cluster and exits)
 * any failure:            error    MESSAGE   (the server exits)
 * </pre>
 * SETTINGS is {@code name=value,...}; PLACEMENT is {@code off} for plain Trino, else {@code placing}, policy,
 * topology source, threads and problem (empty when none).
 */
final class BenchServerProtocol
{
    static final String PREFIX = "chiplet-bench-server\t";
    static final String QUERY = "query";
    static final String STATUS = "status";
    static final String EXIT = "exit";

    /** What the plugin's placement agent reports on the "on" server; empty on the "off" server. */
    record Placement(boolean placing, String policy, String topologySource, long threads, String problem)
    {
        Placement
        {
            requireNonNull(policy, "policy is null");
            requireNonNull(topologySource, "topologySource is null");
            requireNonNull(problem, "problem is null");
        }
    }

    /** One answer of a server. */
    sealed interface Reply
            permits Ready, Result, Status, Failure {}

    record Ready(Map<String, String> settings, Optional<Placement> placement)
            implements Reply
    {
        Ready
        {
            settings = Map.copyOf(settings);
            requireNonNull(placement, "placement is null");
        }
    }

    record Result(int query, long nanos, Fingerprint fingerprint)
            implements Reply
    {
        Result
        {
            requireNonNull(fingerprint, "fingerprint is null");
        }
    }

    record Status(Optional<Placement> placement)
            implements Reply
    {
        Status
        {
            requireNonNull(placement, "placement is null");
        }
    }

    record Failure(String message)
            implements Reply
    {
        Failure
        {
            requireNonNull(message, "message is null");
        }
    }

    private BenchServerProtocol() {}

    static String queryCommand(int query)
    {
        return QUERY + " " + query;
    }

    static String encode(Reply reply)
    {
        requireNonNull(reply, "reply is null");
        List<String> fields = switch (reply) {
            case Ready ready -> List.of("ready", encodeSettings(ready.settings()), encodePlacement(ready.placement()));
            case Result result -> List.of("result", Integer.toString(result.query()), Long.toString(result.nanos()),
                    Long.toString(result.fingerprint().rows()), Long.toString(result.fingerprint().checksum()));
            case Status status -> List.of("status", encodePlacement(status.placement()));
            case Failure failure -> List.of("error", clean(failure.message()));
        };
        return PREFIX + String.join("\t", fields);
    }

    /**
     * @return empty for a line that is not ours
     * @throws IllegalArgumentException for a line with our prefix that does not parse
     */
    static Optional<Reply> decode(String line)
    {
        requireNonNull(line, "line is null");
        if (!line.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] fields = line.substring(PREFIX.length()).split("\t", -1);
        try {
            return Optional.of(switch (fields[0]) {
                case "ready" -> new Ready(decodeSettings(field(fields, 1)), decodePlacement(fields, 2));
                case "result" -> new Result(Integer.parseInt(field(fields, 1)), Long.parseLong(field(fields, 2)),
                        new Fingerprint(Long.parseLong(field(fields, 3)), Long.parseLong(field(fields, 4))));
                case "status" -> new Status(decodePlacement(fields, 1));
                case "error" -> new Failure(field(fields, 1));
                default -> throw new IllegalArgumentException("unknown reply " + fields[0]);
            });
        }
        catch (RuntimeException e) {
            throw new IllegalArgumentException("cannot read the benchmark server's reply '" + line + "': " + e.getMessage(), e);
        }
    }

    private static String encodeSettings(Map<String, String> settings)
    {
        return String.join(",", settings.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue()).toList());
    }

    private static Map<String, String> decodeSettings(String text)
    {
        Map<String, String> settings = new LinkedHashMap<>();
        if (!text.isEmpty()) {
            for (String pair : text.split(",")) {
                int equals = pair.indexOf('=');
                if (equals < 1) {
                    throw new IllegalArgumentException("expected name=value but got '" + pair + "'");
                }
                settings.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
        }
        return settings;
    }

    private static String encodePlacement(Optional<Placement> placement)
    {
        return placement.map(p -> String.join("\t", Boolean.toString(p.placing()), clean(p.policy()), clean(p.topologySource()),
                Long.toString(p.threads()), clean(p.problem()))).orElse("off");
    }

    private static Optional<Placement> decodePlacement(String[] fields, int first)
    {
        if (field(fields, first).equals("off")) {
            return Optional.empty();
        }
        return Optional.of(new Placement(Boolean.parseBoolean(field(fields, first)), field(fields, first + 1), field(fields, first + 2),
                Long.parseLong(field(fields, first + 3)), field(fields, first + 4)));
    }

    private static String field(String[] fields, int index)
    {
        if (index >= fields.length) {
            throw new IllegalArgumentException("expected at least " + (index + 1) + " fields");
        }
        return fields[index];
    }

    /** A message is one field: no tabs nor line breaks. */
    private static String clean(String text)
    {
        return text.replaceAll("[\\t\\r\\n]+", " ");
    }
}
