package io.threadlab.database.testing;

import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A test (or a class of them) that runs a real PostgreSQL: skipped, with its reason, where the lab's binaries cannot run. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@EnabledOnOs(value = OS.LINUX, architectures = {"amd64", "x86_64"},
        disabledReason = "needs Linux on x86_64: the PostgreSQL binaries on Maven Central the lab uses are built for it")
public @interface RealPostgres {
}
