/**
 * Fail-open, once for every engine: {@link io.chiplet.failopen.FailOpenSwitch} runs a part of a plugin, and the first
 * failure of ours (a bad setting, an unreadable file, a refused syscall, a class or member the running engine or JVM
 * cannot link, a bug) logs one warning naming the cause and switches that part off, leaving the engine as it would be
 * without us. The plugins only say what the part is and what runs instead.
 *
 * <p>Allowed dependencies: none of ours.
 */
package io.chiplet.failopen;
