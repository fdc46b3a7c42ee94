package io.threadlab.experiment.analyse;

import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * What a stack trace says: the layer an execution sample spent its CPU in, whether request code is on it, the site
 * that waited, and where native code was entered. Walking frames costs, and a recording repeats few distinct stacks many times (JFR keeps each
 * distinct stack once per chunk and hands out the same object for it), so the answers are cached per stack object.
 */
final class StackFacts {

    /** Enough for the distinct stacks of several chunks; the caches start over beyond it to bound the heap. */
    private static final int MAX_CACHED = 50_000;
    private static final String REQUEST_CODE = "io.threadlab.api.";
    /** The JDK's own waiting machinery: a site inside it says nothing, so a JDK-only stack is named below it. */
    private static final Set<String> WAIT_PRIMITIVES = Set.of("jdk.internal.misc.Unsafe",
            "java.util.concurrent.locks.LockSupport", "java.lang.Object", "java.lang.VirtualThread",
            "java.lang.Thread");

    /** The JVM's suffix of a hidden class (a lambda, a class defined at run time): differs per class and per run. */
    private static final Pattern HIDDEN_SUFFIX = Pattern.compile("[./]0x[0-9a-fA-F]+");
    /** The frames of an FFM downcall, entered on the way into native code. */
    private static final String DOWNCALL = "jdk.internal.foreign.abi.";
    /**
     * Hibernate ORM fetching what was left lazy, on first touch: a collection, a proxy, or an entity that bytecode
     * enhancement stands in for. Each runs a statement of its own; the page loaded in one query (a fetch join) never
     * enters them.
     */
    private static final Set<String> LAZY_LOADS = Set.of(
            "org.hibernate.collection.spi.AbstractPersistentCollection.initialize",
            "org.hibernate.proxy.AbstractLazyInitializer.initialize",
            "org.hibernate.bytecode.enhance.spi.interceptor.EnhancementAsProxyLazinessInterceptor.forceInitialize");
    /**
     * Quarkus refusing a blocking call on an I/O thread: the exception it throws, and RESTEasy Reactive's mapper,
     * which logs that very refusal. A correct program never enters either.
     */
    private static final String REFUSAL = "io.quarkus.runtime.BlockingOperationNotAllowedException";
    private static final String REFUSAL_LOGGED =
            "org.jboss.resteasy.reactive.server.core.RuntimeExceptionMapper.logBlockingErrorIfRequired";

    /**
     * Where an execution sample's CPU went.
     *
     * @param labSite          the first frame of request code, leaf first, or null
     * @param synchronizedSite the first frame of a synchronized method of request code, leaf first, or null
     * @param lazyLoad         Hibernate ORM was fetching a lazy association ({@link #LAZY_LOADS})
     * @param blockingRefused  Quarkus was refusing a blocking call on an I/O thread ({@link #REFUSAL})
     */
    record Sample(Layer layer, boolean requestCode, String labSite, String synchronizedSite, boolean lazyLoad,
                  boolean blockingRefused) {
    }

    /**
     * A native method sample: the native code entered, and the request code that entered it (or null).
     *
     * @param nativeFrame "FFM downcall" or the native method, as Class.method
     */
    record NativeCall(String nativeFrame, String labSite) {

        /**
         * The JDK's socket calls (sun.nio.ch: SocketDispatcher.read0/write0, Net.poll...): on a virtual thread the
         * JDK puts its sockets in non-blocking mode, so these return at once and the thread unmounts to wait; a
         * virtual thread sampled inside one was caught writing its query, not holding its carrier. (A platform
         * thread blocks in them.)
         */
        boolean nonBlockingSocketIo() {
            return nativeFrame.startsWith("sun.nio.ch.");
        }
    }

    private final Map<String, CodeLayers.Kind> kinds = new HashMap<>();
    private final Map<RecordedStackTrace, Sample> samples = new IdentityHashMap<>();
    private final Map<RecordedStackTrace, String> sites = new IdentityHashMap<>();
    private final Map<RecordedStackTrace, NativeCall> nativeCalls = new IdentityHashMap<>();

    Sample sample(RecordedStackTrace stack) {
        if (stack == null) {
            return new Sample(Layer.JDK, false, null, null, false, false);
        }
        Sample known = samples.get(stack);
        if (known == null) {
            List<RecordedFrame> frames = stack.getFrames();
            known = new Sample(layer(frames), inRequestCode(frames), labSite(frames), synchronizedSite(frames),
                    anyFrame(frames, StackFacts::lazyLoad), anyFrame(frames, StackFacts::refusal));
            remember(samples, stack, known);
        }
        return known;
    }

    NativeCall nativeCall(RecordedStackTrace stack) {
        if (stack == null) {
            return new NativeCall("(no stack trace)", null);
        }
        NativeCall known = nativeCalls.get(stack);
        if (known == null) {
            known = new NativeCall(nativeFrame(stack.getFrames()), labSite(stack.getFrames()));
            remember(nativeCalls, stack, known);
        }
        return known;
    }

    /** The class whose static initialiser is on the stack (the innermost), or null. */
    static String initialiserOnStack(RecordedStackTrace stack) {
        if (stack != null) {
            for (RecordedFrame frame : stack.getFrames()) {
                RecordedMethod method = frame.getMethod();
                if (method != null && method.getName().equals("<clinit>")) {
                    return withoutHiddenSuffix(method.getType().getName());
                }
            }
        }
        return null;
    }

    /** "BlockingClassInit" for every hidden copy of it, so that the copies count as one. */
    static String withoutHiddenSuffix(String name) {
        return HIDDEN_SUFFIX.matcher(name).replaceAll("");
    }

    /** The first frame outside the JDK, as Class.method:line; for a JDK-only stack, its first frame that is not a wait primitive. */
    String site(RecordedStackTrace stack) {
        if (stack == null) {
            return "(no stack trace)";
        }
        String known = sites.get(stack);
        if (known == null) {
            known = findSite(stack.getFrames());
            remember(sites, stack, known);
        }
        return known;
    }

    private Layer layer(List<RecordedFrame> frames) {
        List<String> classNames = new ArrayList<>(frames.size());
        for (RecordedFrame frame : frames) {
            if (frame.getMethod() != null) {
                classNames.add(frame.getMethod().getType().getName());
            }
        }
        return CodeLayers.layer(classNames, this::kind);
    }

    private boolean inRequestCode(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            RecordedMethod method = frame.getMethod();
            if (method != null && method.getType().getName().startsWith(REQUEST_CODE)) {
                return true;
            }
        }
        return false;
    }

    private static String labSite(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            RecordedMethod method = frame.getMethod();
            if (method != null && method.getType().getName().startsWith(REQUEST_CODE)) {
                return name(frame);
            }
        }
        return null;
    }

    private static boolean anyFrame(List<RecordedFrame> frames, Predicate<RecordedMethod> test) {
        for (RecordedFrame frame : frames) {
            if (frame.getMethod() != null && test.test(frame.getMethod())) {
                return true;
            }
        }
        return false;
    }

    private static boolean lazyLoad(RecordedMethod method) {
        return LAZY_LOADS.contains(method.getType().getName() + "." + method.getName());
    }

    private static boolean refusal(RecordedMethod method) {
        String type = method.getType().getName();
        return type.equals(REFUSAL) || REFUSAL_LOGGED.equals(type + "." + method.getName());
    }

    private static String synchronizedSite(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            RecordedMethod method = frame.getMethod();
            if (method != null && Modifier.isSynchronized(method.getModifiers())
                    && method.getType().getName().startsWith(REQUEST_CODE)) {
                return name(frame);
            }
        }
        return null;
    }

    /** The way into native code, leaf first: an FFM downcall's frames, or a native method. */
    private static String nativeFrame(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            RecordedMethod method = frame.getMethod();
            if (method == null) {
                continue;
            }
            if (method.getType().getName().startsWith(DOWNCALL)) {
                return "FFM downcall";
            }
            if (Modifier.isNative(method.getModifiers())) {
                return method.getType().getName() + "." + method.getName();
            }
        }
        return frames.isEmpty() || frames.getFirst().getMethod() == null ? "?"
                : frames.getFirst().getMethod().getType().getName() + "." + frames.getFirst().getMethod().getName();
    }

    private String findSite(List<RecordedFrame> frames) {
        RecordedFrame firstJdk = null;
        for (RecordedFrame frame : frames) {
            CodeLayers.Kind kind = kind(frame);
            if (kind == null) {
                continue;
            }
            if (kind != CodeLayers.Kind.JDK) {
                return name(frame);
            }
            if (firstJdk == null && !WAIT_PRIMITIVES.contains(frame.getMethod().getType().getName())) {
                firstJdk = frame;
            }
        }
        return firstJdk != null ? name(firstJdk) : "(JDK frames only)";
    }

    private CodeLayers.Kind kind(RecordedFrame frame) {
        RecordedMethod method = frame.getMethod();
        return method == null ? null : kind(method.getType().getName());
    }

    private CodeLayers.Kind kind(String className) {
        return kinds.computeIfAbsent(className, CodeLayers::of);
    }

    private static String name(RecordedFrame frame) {
        return withoutHiddenSuffix(frame.getMethod().getType().getName()) + "." + frame.getMethod().getName() + ":"
                + frame.getLineNumber();
    }

    private static <V> void remember(Map<RecordedStackTrace, V> cache, RecordedStackTrace stack, V value) {
        if (cache.size() >= MAX_CACHED) {
            cache.clear();
        }
        cache.put(stack, value);
    }

    /** "Object @ SelectedSelectionKeySetSelector.select": a site short enough to label a picture with. */
    static String shortForm(String className, String site) {
        String method = site.contains(":") ? site.substring(0, site.lastIndexOf(':')) : site;
        int dot = method.lastIndexOf('.');
        return simpleName(className) + " @ "
                + (dot < 0 ? method : simpleName(method.substring(0, dot)) + method.substring(dot));
    }

    /** The innermost name: ContendedLedger for io.threadlab.api.KnownCostWorkloads$ContendedLedger (Foo$1 stays). */
    static String simpleName(String className) {
        int lambda = className.indexOf("$$Lambda"); // a hidden class: Foo$$Lambda.0x0000...
        if (lambda > 0) {
            return simpleName(className.substring(0, lambda)) + "$$Lambda";
        }
        String simple = className.substring(className.lastIndexOf('.') + 1);
        int nested = simple.lastIndexOf('$');
        return nested >= 0 && nested < simple.length() - 1 && !Character.isDigit(simple.charAt(nested + 1))
                ? simple.substring(nested + 1) : simple;
    }
}
