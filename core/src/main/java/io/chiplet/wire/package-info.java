/**
 * The one wire format both plugins' sides speak as plain strings ({@link io.chiplet.wire.WireMessage}): Spark's
 * driver and executors through the plugin RPC, which may decode no class of ours. Tab-separated fields, a version,
 * the message's kind; text URL-encoded; numbers in Java's round-trip form, so that a control share of 0.3 comes back
 * as 0.3. A message that is not ours, or malformed, is an {@link io.chiplet.wire.Unreadable} naming the message and
 * field, never an exception that could reach the engine. Pure.
 *
 * <p>Allowed dependencies: none of ours.
 */
package io.chiplet.wire;
