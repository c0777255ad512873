package io.chiplet.spark.unlisted;

/** Test only: a class in a package no rule table names, so that {@code io.chiplet.rules.InjectedViolationsTest} can show it is caught. */
public final class UnlistedPackage
{
    private UnlistedPackage() {}
}
