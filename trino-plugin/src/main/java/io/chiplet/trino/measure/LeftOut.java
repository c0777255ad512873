package io.chiplet.trino.measure;

/** Why a completed query was left out of the comparison. */
enum LeftOut
{
    SPANNING("ran in windows of both arms"),
    UNSCHEDULED("ran before the schedule's first window"),
    UNCONFIRMED("ran in windows some worker may not have followed yet"),
    FAILED("failed"),
    LATE("completed after its window's observation was complete"),
    NO_CPU("used no CPU time");

    private final String reason;

    LeftOut(String reason)
    {
        this.reason = reason;
    }

    String reason()
    {
        return reason;
    }
}
