package io.chiplet.trino.session;

import io.trino.spi.session.SessionConfigurationContext;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.toUnmodifiableMap;

/**
 * One entry of the operator's session property rules, the JSON the built-in {@code file} manager reads: each
 * condition given must hold (regular expressions match the whole value), and then the rule contributes its
 * properties.
 *
 * @param sessionProperties system properties, and catalog ones written {@code catalog.property}
 * @param catalogSessionProperties catalog properties as {@code {catalog: {property: value}}}
 */
public record SessionRule(
        Optional<Pattern> user,
        Optional<Pattern> source,
        Set<String> clientTags,
        Optional<String> queryType,
        Optional<Pattern> group,
        Map<String, String> sessionProperties,
        Map<String, Map<String, String>> catalogSessionProperties)
{
    public SessionRule
    {
        requireNonNull(user, "user is null");
        requireNonNull(source, "source is null");
        clientTags = Set.copyOf(clientTags);
        requireNonNull(queryType, "queryType is null");
        requireNonNull(group, "group is null");
        sessionProperties = Map.copyOf(sessionProperties);
        catalogSessionProperties = catalogSessionProperties.entrySet().stream()
                .collect(toUnmodifiableMap(Map.Entry::getKey, entry -> Map.copyOf(entry.getValue())));
    }

    public boolean matches(SessionConfigurationContext context)
    {
        requireNonNull(context, "context is null");
        return user.map(pattern -> pattern.matcher(context.getUser()).matches()).orElse(true)
                && source.map(pattern -> pattern.matcher(context.getSource().orElse("")).matches()).orElse(true)
                && context.getClientTags().containsAll(clientTags)
                && queryType.map(type -> type.equalsIgnoreCase(context.getQueryType().orElse(""))).orElse(true)
                && group.map(pattern -> pattern.matcher(context.getResourceGroupId().toString()).matches()).orElse(true);
    }
}
