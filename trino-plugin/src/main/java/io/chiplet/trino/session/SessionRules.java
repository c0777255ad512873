package io.chiplet.trino.session;

import io.trino.spi.session.SessionConfigurationContext;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.toUnmodifiableMap;

/**
 * The operator's rules, applied the way the built-in {@code file} manager applies them: every matching rule
 * contributes, and a later rule overrides an earlier one's value for the same property.
 */
public record SessionRules(List<SessionRule> rules)
{
    public static final SessionRules NONE = new SessionRules(List.of());

    /** What the matching rules set: system properties, and catalog properties per catalog. */
    public record Resolved(Map<String, String> system, Map<String, Map<String, String>> catalogs)
    {
        public Resolved
        {
            system = Map.copyOf(system);
            catalogs = catalogs.entrySet().stream()
                    .collect(toUnmodifiableMap(Map.Entry::getKey, entry -> Map.copyOf(entry.getValue())));
        }
    }

    public SessionRules
    {
        rules = List.copyOf(rules);
    }

    public Resolved resolve(SessionConfigurationContext context)
    {
        requireNonNull(context, "context is null");
        Map<String, String> system = new HashMap<>();
        Map<String, Map<String, String>> catalogs = new HashMap<>();
        for (SessionRule rule : rules) {
            if (!rule.matches(context)) {
                continue;
            }
            rule.sessionProperties().forEach((name, value) -> {
                // As Trino's own manager does: a dotted name is a catalog property.
                int dot = name.indexOf('.');
                if (dot < 0) {
                    system.put(name, value);
                }
                else {
                    catalogs.computeIfAbsent(name.substring(0, dot), key -> new HashMap<>()).put(name.substring(dot + 1), value);
                }
            });
            rule.catalogSessionProperties().forEach((catalog, properties) ->
                    catalogs.computeIfAbsent(catalog, key -> new HashMap<>()).putAll(properties));
        }
        return new Resolved(system, catalogs);
    }
}
