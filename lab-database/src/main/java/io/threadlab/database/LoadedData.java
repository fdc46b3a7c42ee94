package io.threadlab.database;

import java.time.Duration;

/**
 * The data as loaded: its size, its checksum (the same sizes give the same checksum on every run and machine, which a
 * manifest can show) and how long loading took.
 */
public record LoadedData(DataSize size, String checksum, Duration loadTime) {
}
