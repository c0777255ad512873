package io.chiplet.measure;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * When switchback windows became how long: from base window {@code fromWindow} on (numbered as in
 * {@link SwitchbackWindows}), windows are {@code 2^exponent} base windows long. A long window is the union of
 * {@code 2^exponent} base windows aligned to the epoch (it starts at a base window divisible by {@code 2^exponent}),
 * and is named by its first base window, so processes that hold the same steps cut time the same way. Steps start at
 * a boundary of their own length (hence of every shorter one before them) and their exponents only grow: a new step
 * never cuts a long window in two. Immutable.
 */
public record WindowSteps(List<Step> steps)
{
    /** Windows of {@code 2^exponent} base windows from base window {@code fromWindow} on. */
    public record Step(long fromWindow, int exponent)
    {
        public Step
        {
            if (exponent < 0 || exponent > 20) {
                throw new IllegalArgumentException("expected a window exponent from 0 to 20, got " + exponent);
            }
            if (fromWindow < 0 || fromWindow % (1L << exponent) != 0) {
                throw new IllegalArgumentException("expected a step from a base window of 0 or more divisible by 2^" + exponent + ", got " + fromWindow);
            }
        }
    }

    /** Base windows throughout. */
    public static final WindowSteps BASE = new WindowSteps(List.of(new Step(0, 0)));

    public WindowSteps
    {
        steps = List.copyOf(requireNonNull(steps, "steps is null"));
        if (steps.isEmpty() || steps.get(0).fromWindow() != 0) {
            throw new IllegalArgumentException("expected steps starting at base window 0, got " + steps);
        }
        for (int i = 1; i < steps.size(); i++) {
            if (steps.get(i).fromWindow() <= steps.get(i - 1).fromWindow() || steps.get(i).exponent() <= steps.get(i - 1).exponent()) {
                throw new IllegalArgumentException("expected steps later and longer than the one before, got " + steps);
            }
        }
    }

    /** The exponent in force at base window {@code window}. */
    public int exponentAt(long window)
    {
        int exponent = steps.get(0).exponent();
        for (Step step : steps) {
            if (step.fromWindow() <= window) {
                exponent = step.exponent();
            }
        }
        return exponent;
    }

    /** The exponent of the last step: the length windows have from its start on. */
    public int latestExponent()
    {
        return steps.get(steps.size() - 1).exponent();
    }

    /** The long window (its first base window) that holds base window {@code window}. */
    public long windowOf(long window)
    {
        long length = 1L << exponentAt(Math.max(0, window));
        return Math.floorDiv(Math.max(0, window), length) * length;
    }

    /** The first base window of the long window after the one that holds base window {@code window}. */
    public long nextWindow(long window)
    {
        long start = windowOf(window);
        return start + (1L << exponentAt(start));
    }

    /**
     * With windows of {@code 2^exponent} base windows from the first boundary of that length at or after base window
     * {@code earliest} (and after the last step's start); this where {@code exponent} is not longer than the latest.
     */
    public WindowSteps grow(int exponent, long earliest)
    {
        if (exponent <= latestExponent()) {
            return this;
        }
        long length = 1L << exponent;
        long from = Math.max(Math.max(0, earliest), steps.get(steps.size() - 1).fromWindow() + 1);
        List<Step> grown = new ArrayList<>(steps);
        grown.add(new Step(-Math.floorDiv(-from, length) * length, exponent));
        return new WindowSteps(grown);
    }

    /**
     * The arm of {@code host}'s long window {@code window} (its first base window) under {@code directive}: a fresh
     * seeded draw per long window and host. Base windows draw as {@link SwitchbackWindows} always did (the host as
     * stratum, the window as unit); windows of {@code 2^m} base windows draw in a stratum of their own per host and
     * {@code m}, numbered one after another, so that at a share of 0.5 each pair of long windows holds both arms.
     */
    public DrawnArm draw(ArmAssignment assignment, Directive directive, long host, long window)
    {
        requireNonNull(assignment, "assignment is null");
        requireNonNull(directive, "directive is null");
        int exponent = exponentAt(window);
        long stratum = exponent == 0 ? host : host ^ (0x632be59bd9b4e019L * exponent);
        if (exponent != 0 && stratum == ArmAssignment.PROCESSES) {
            stratum++;
        }
        return directive.draw(assignment, stratum, Math.max(0, window) >> exponent);
    }

    /** The steps as text for a message ({@code from:exponent,...}); {@link #parse} reads it back. */
    public String encode()
    {
        StringBuilder text = new StringBuilder();
        for (Step step : steps) {
            text.append(text.isEmpty() ? "" : ",").append(step.fromWindow()).append(':').append(step.exponent());
        }
        return text.toString();
    }

    /** Steps from {@link #encode}'s text. */
    public static WindowSteps parse(String text)
    {
        requireNonNull(text, "text is null");
        List<Step> steps = new ArrayList<>();
        for (String step : text.split(",")) {
            String[] parts = step.split(":");
            if (parts.length != 2) {
                throw new IllegalArgumentException("expected window steps as from:exponent,..., got " + text);
            }
            steps.add(new Step(Long.parseLong(parts[0]), Integer.parseInt(parts[1])));
        }
        return new WindowSteps(steps);
    }
}
