package io.threadlab.api;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The CPU-heavy part of a request, the same for every /mistakes/cpu endpoint: SHA-256 over a 64 KiB buffer, 27 times
 * over, each round chained to the last digest. That is about 1 ms of CPU once warm: measured on the lab's machine
 * (AMD EPYC with the SHA extensions, JDK 25's SHA-256 intrinsic), one 64 KiB digest takes 0.037 ms of thread CPU
 * time (1.7 GB/s). A CPU without SHA extensions takes a few times longer.
 */
public final class CpuWork {

    static final int BUFFER_BYTES = 64 * 1024;
    static final int ROUNDS = 27;

    private static final byte[] BUFFER = new byte[BUFFER_BYTES];

    static {
        for (int i = 0; i < BUFFER.length; i++) {
            BUFFER[i] = (byte) (i * 31);
        }
    }

    private CpuWork() {
    }

    /** The work; its result is the final digest, so that no round can be optimised away. */
    public static byte[] hash() {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] digest = new byte[0];
            for (int round = 0; round < ROUNDS; round++) {
                sha256.update(digest);
                sha256.update(BUFFER);
                digest = sha256.digest();
            }
            return digest;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
