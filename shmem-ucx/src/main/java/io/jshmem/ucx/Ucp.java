/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import static io.jshmem.ucx.UcpAbi.*;

import io.jshmem.ShmemException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/**
 * FFM bindings to libucp (UCX 1.13 API, x86-64/aarch64 LP64) and the few libc calls the transport
 * needs (setenv, poll, open_memstream).
 *
 * <p>Loading: the class initializer first sets {@code UCX_ERROR_SIGNALS=""} with libc's setenv
 * (libucs installs SIGSEGV/SIGBUS handlers when it loads, which would turn the JVM's own implicit
 * null checks into crashes), then looks up {@code libucp.so.0} in the global arena: UCX starts
 * threads and registers exit handlers, so the library is never unloaded. If it cannot be found,
 * {@link #require()} throws a {@link ShmemException} naming the package to install.
 *
 * <p>Conventions: a downcall handle is created on its function's first call (a holder class per
 * function), so loading the transport costs only the library lookup. Every pointer is passed
 * as a {@code long} ({@code JAVA_LONG}: the same register class as a pointer on LP64): no
 * MemorySegment is made per call, and the functions share a dozen call shapes (the JDK spins
 * one stub per shape); the set-up wrappers take segments and pass their addresses. {@code ucs_status_t} is a one-byte
 * enum ({@code JAVA_BYTE}); {@code ucs_status_ptr_t} is returned as a {@code long} and decoded with
 * {@link #isError(long)} and {@link #ptrStatus(long)}. No handle uses {@code Linker.Option.critical}:
 * progress may call back into Java (the endpoint error handler). The constants and struct layouts
 * the calls take are {@link UcpAbi}'s.
 */
final class Ucp {
    private Ucp() {
    }

    // ------------------------------------------------------------------ loading

    /** The soname looked up; the message when it is missing names the Debian/Ubuntu package. */
    static final String LIBRARY = "libucp.so.0";
    static final String MISSING = "the UCX transport needs libucp (Debian/Ubuntu: apt-get install libucx0)";

    private static final Linker LINKER = Linker.nativeLinker();

    /*
     * Call shapes. Every pointer is passed as a long (the same register class on LP64), so the
     * functions share few shapes: the JDK caches one generated stub per shape, and each new shape
     * costs milliseconds of CPU (class spinning, then JIT) at start-up.
     */
    private static final FunctionDescriptor V_J = FunctionDescriptor.ofVoid(JAVA_LONG);
    private static final FunctionDescriptor V_JJ = FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_LONG);
    private static final FunctionDescriptor B_J = FunctionDescriptor.of(JAVA_BYTE, JAVA_LONG);
    private static final FunctionDescriptor B_JJ = FunctionDescriptor.of(JAVA_BYTE, JAVA_LONG, JAVA_LONG);
    private static final FunctionDescriptor B_JJJ = FunctionDescriptor.of(JAVA_BYTE, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    private static final FunctionDescriptor B_JJJJ = FunctionDescriptor.of(JAVA_BYTE, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    private static final FunctionDescriptor B_IIJJJ = FunctionDescriptor.of(JAVA_BYTE, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    private static final FunctionDescriptor I_J = FunctionDescriptor.of(JAVA_INT, JAVA_LONG);
    private static final FunctionDescriptor I_JJI = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT);
    private static final FunctionDescriptor J_ = FunctionDescriptor.of(JAVA_LONG);
    private static final FunctionDescriptor J_B = FunctionDescriptor.of(JAVA_LONG, JAVA_BYTE);
    private static final FunctionDescriptor J_JJ = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG);
    private static final FunctionDescriptor J_JJJJJJ = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
            JAVA_LONG, JAVA_LONG);
    private static final FunctionDescriptor J_JIJJJJJ = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG);

    /** Why libucp could not be loaded, or null when it was. */
    private static final String LOAD_ERROR;
    private static final SymbolLookup UCP;

    static {
        String error = null;
        SymbolLookup lookup = null;
        try {
            disableUcxSignalHandlers();
            lookup = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
        } catch (IllegalArgumentException e) {
            error = MISSING + ": " + e.getMessage();
        } catch (IllegalCallerException e) {
            error = "the UCX transport calls native code: run java with --enable-native-access=ALL-UNNAMED ("
                    + e.getMessage() + ")";
        }
        LOAD_ERROR = error;
        UCP = lookup;
    }

    /*
     * One holder class per function: a downcall handle is made when its function is first called
     * (class initialization), not when the transport loads, and the call site still sees a
     * static final handle (constant-folded by the JIT, as cheap as an eager one).
     */
    private static final class SetEnv { static final MethodHandle H = libc("setenv", I_JJI); }
    private static final class Poll { static final MethodHandle H = libc("poll", I_JJI); }
    private static final class OpenMemstream { static final MethodHandle H = libc("open_memstream", J_JJ); }
    private static final class FClose { static final MethodHandle H = libc("fclose", I_J); }
    private static final class Free { static final MethodHandle H = libc("free", V_J); }

    private static final class ConfigRead { static final MethodHandle H = ucp("ucp_config_read", B_JJJ); }
    private static final class ConfigModify { static final MethodHandle H = ucp("ucp_config_modify", B_JJJ); }
    private static final class ConfigRelease { static final MethodHandle H = ucp("ucp_config_release", V_J); }
    private static final class InitVersion { static final MethodHandle H = ucp("ucp_init_version", B_IIJJJ); }
    private static final class Cleanup { static final MethodHandle H = ucp("ucp_cleanup", V_J); }
    private static final class ContextPrintInfo { static final MethodHandle H = ucp("ucp_context_print_info", V_JJ); }
    private static final class GetVersionString { static final MethodHandle H = ucp("ucp_get_version_string", J_); }
    private static final class WorkerCreate { static final MethodHandle H = ucp("ucp_worker_create", B_JJJ); }
    private static final class WorkerDestroy { static final MethodHandle H = ucp("ucp_worker_destroy", V_J); }
    private static final class WorkerGetAddress { static final MethodHandle H = ucp("ucp_worker_get_address", B_JJJ); }
    private static final class WorkerReleaseAddress { static final MethodHandle H = ucp("ucp_worker_release_address", V_JJ); }
    private static final class WorkerGetEfd { static final MethodHandle H = ucp("ucp_worker_get_efd", B_JJ); }
    private static final class WorkerArm { static final MethodHandle H = ucp("ucp_worker_arm", B_J); }
    private static final class WorkerSignal { static final MethodHandle H = ucp("ucp_worker_signal", B_J); }
    private static final class EpCreate { static final MethodHandle H = ucp("ucp_ep_create", B_JJJ); }
    private static final class EpCloseNbx { static final MethodHandle H = ucp("ucp_ep_close_nbx", J_JJ); }
    private static final class EpPrintInfo { static final MethodHandle H = ucp("ucp_ep_print_info", V_JJ); }
    private static final class MemMap { static final MethodHandle H = ucp("ucp_mem_map", B_JJJ); }
    private static final class MemUnmap { static final MethodHandle H = ucp("ucp_mem_unmap", B_JJ); }
    private static final class RkeyPack { static final MethodHandle H = ucp("ucp_rkey_pack", B_JJJJ); }
    private static final class RkeyBufferRelease { static final MethodHandle H = ucp("ucp_rkey_buffer_release", V_J); }
    private static final class EpRkeyUnpack { static final MethodHandle H = ucp("ucp_ep_rkey_unpack", B_JJJ); }
    private static final class RkeyDestroy { static final MethodHandle H = ucp("ucp_rkey_destroy", V_J); }
    private static final class StatusString { static final MethodHandle H = ucp("ucs_status_string", J_B); }
    private static final class WorkerProgress { static final MethodHandle H = ucp("ucp_worker_progress", I_J); }
    private static final class WorkerFence { static final MethodHandle H = ucp("ucp_worker_fence", B_J); }
    private static final class EpFlushNbx { static final MethodHandle H = ucp("ucp_ep_flush_nbx", J_JJ); }
    private static final class PutNbx { static final MethodHandle H = ucp("ucp_put_nbx", J_JJJJJJ); }
    private static final class GetNbx { static final MethodHandle H = ucp("ucp_get_nbx", J_JJJJJJ); }
    private static final class AtomicOpNbx { static final MethodHandle H = ucp("ucp_atomic_op_nbx", J_JIJJJJJ); }
    private static final class RequestCheckStatus { static final MethodHandle H = ucp("ucp_request_check_status", B_J); }
    private static final class RequestFree { static final MethodHandle H = ucp("ucp_request_free", V_J); }
    private static final class AmSendNbx { static final MethodHandle H = ucp("ucp_am_send_nbx", J_JIJJJJJ); }
    private static final class WorkerSetAmRecvHandler { static final MethodHandle H = ucp("ucp_worker_set_am_recv_handler", B_JJ); }
    private static final class RequestCancel { static final MethodHandle H = ucp("ucp_request_cancel", V_JJ); }

    /** The upcall type of {@code ucp_err_handler_cb_t}: {@code void (*)(void *arg, ucp_ep_h ep, ucs_status_t status)}. */
    static final FunctionDescriptor ERR_HANDLER = FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_BYTE);

    /**
     * The upcall type of {@code ucp_am_recv_callback_t}: {@code ucs_status_t (*)(void *arg, const
     * void *header, size_t header_length, void *data, size_t length, const ucp_am_recv_param_t *param)},
     * pointers as longs.
     */
    static final FunctionDescriptor AM_RECV = FunctionDescriptor.of(JAVA_BYTE, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
            JAVA_LONG, JAVA_LONG);

    private static MethodHandle libc(String name, FunctionDescriptor fd) {
        MemorySegment symbol = LINKER.defaultLookup().find(name).orElse(null);
        if (symbol == null) {
            throw new ExceptionInInitializerError("libc has no " + name);
        }
        return LINKER.downcallHandle(symbol, fd);
    }

    /** A handle to a libucp function; {@link #require()} has checked that it exists. */
    private static MethodHandle ucp(String name, FunctionDescriptor fd) {
        MemorySegment symbol = UCP == null ? null : UCP.find(name).orElse(null);
        if (symbol == null) {
            throw new ShmemException(unavailableReason() != null ? unavailableReason() : "libucp has no " + name);
        }
        return LINKER.downcallHandle(symbol, fd);
    }

    /** The newest functions this transport uses: without them the library is too old. */
    private static final String[] NEWEST = {"ucp_init_version", "ucp_put_nbx", "ucp_atomic_op_nbx", "ucp_worker_flush_nbx",
        "ucp_ep_close_nbx", "ucs_status_string", "ucp_worker_arm", "ucp_am_send_nbx", "ucp_worker_set_am_recv_handler"};

    /** Whether libucp was found and every function this transport uses is exported. */
    static boolean available() {
        return unavailableReason() == null;
    }

    /** Why the transport cannot be used here, or null. */
    static String unavailableReason() {
        if (LOAD_ERROR != null) {
            return LOAD_ERROR;
        }
        for (String f : NEWEST) {
            if (UCP.find(f).isEmpty()) {
                return "the libucp found is too old: the UCX transport needs UCX 1.10 or newer (Debian/Ubuntu: apt-get install libucx0)";
            }
        }
        return null;
    }

    /** Throws the reason the transport is unavailable, if it is. */
    static void require() {
        String why = unavailableReason();
        if (why != null) {
            throw new ShmemException(why);
        }
    }

    /**
     * libucs installs handlers for SIGSEGV, SIGBUS, SIGILL and SIGFPE when it loads unless
     * UCX_ERROR_SIGNALS is empty; the JVM relies on SIGSEGV (implicit null checks, safepoint
     * polls), so its handlers must stay. Overrides any value: a non-empty one kills the JVM.
     */
    private static void disableUcxSignalHandlers() {
        try (Arena a = Arena.ofConfined()) {
            int rc = (int) SetEnv.H.invokeExact(a.allocateFrom("UCX_ERROR_SIGNALS").address(), a.allocateFrom("").address(), 1);
            if (rc != 0) {
                throw new ExceptionInInitializerError("setenv(UCX_ERROR_SIGNALS) failed");
            }
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    // ------------------------------------------------------------------ status decoding

    /** Whether a {@code ucs_status_ptr_t} is an error code ({@code UCS_PTR_IS_ERR}). */
    static boolean isError(long statusPtr) {
        return Long.compareUnsigned(statusPtr, UCS_ERR_LAST) >= 0;
    }

    /** Whether a {@code ucs_status_ptr_t} is a request handle ({@code UCS_PTR_IS_PTR}). */
    static boolean isRequest(long statusPtr) {
        return statusPtr != 0 && !isError(statusPtr);
    }

    /** {@code UCS_PTR_STATUS}: OK for NULL, INPROGRESS for a request, else the error code. */
    static byte ptrStatus(long statusPtr) {
        if (statusPtr == 0) {
            return UCS_OK;
        }
        return isError(statusPtr) ? (byte) statusPtr : UCS_INPROGRESS;
    }

    /** {@code ucs_status_string}, e.g. "Connection reset by remote peer", plus the code. */
    static String statusString(byte status) {
        String text = null;
        if (LOAD_ERROR == null) {
            try {
                long s = (long) StatusString.H.invokeExact(status);
                text = s == 0 ? null : MemorySegment.ofAddress(s).reinterpret(Integer.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
            } catch (Throwable t) {
                text = null;
            }
        }
        return (text == null ? "status" : text) + " (" + status + ")";
    }

    // ------------------------------------------------------------------ wrappers: libc

    static void setenv(String name, String value) {
        try (Arena a = Arena.ofConfined()) {
            int rc = (int) SetEnv.H.invokeExact(a.allocateFrom(name).address(), a.allocateFrom(value).address(), 1);
            if (rc != 0) {
                throw new ShmemException("setenv(" + name + ") failed");
            }
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** poll(2) on one pollfd; returns poll's result (-1 on EINTR and errors). */
    static int poll(MemorySegment pollfd, int timeoutMillis) {
        try {
            return (int) Poll.H.invokeExact(pollfd.address(), 1L, timeoutMillis);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Runs {@code printer} on a FILE* (its address) backed by memory (open_memstream) and returns the text. */
    static String printToString(java.util.function.LongConsumer printer) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment bufp = a.allocate(ADDRESS);
            MemorySegment sizep = a.allocate(JAVA_LONG);
            long file = (long) OpenMemstream.H.invokeExact(bufp.address(), sizep.address());
            if (file == 0) {
                return "";
            }
            try {
                printer.accept(file);
            } finally {
                int ignored = (int) FClose.H.invokeExact(file);
            }
            MemorySegment buf = bufp.get(ADDRESS, 0);
            long size = sizep.get(JAVA_LONG, 0);
            try {
                return new String(buf.reinterpret(size).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
            } finally {
                Free.H.invokeExact(buf.address());
            }
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    // ------------------------------------------------------------------ wrappers: set-up (slow paths)

    static byte configRead(MemorySegment configOut) {
        try {
            return (byte) ConfigRead.H.invokeExact(0L, 0L, configOut.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code ucp_config_modify(config, name, value)}: {@code name} without the UCX_ prefix, e.g. "NET_DEVICES". */
    static byte configModify(MemorySegment config, String name, String value) {
        try (Arena tmp = Arena.ofConfined()) {
            return (byte) ConfigModify.H.invokeExact(config.address(), tmp.allocateFrom(name).address(), tmp.allocateFrom(value).address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void configRelease(MemorySegment config) {
        try {
            ConfigRelease.H.invokeExact(config.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte init(MemorySegment params, MemorySegment config, MemorySegment contextOut) {
        try {
            return (byte) InitVersion.H.invokeExact(API_MAJOR, API_MINOR, params.address(), config.address(), contextOut.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void cleanup(MemorySegment context) {
        try {
            Cleanup.H.invokeExact(context.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String contextInfo(MemorySegment context) {
        return printToString(file -> {
            try {
                ContextPrintInfo.H.invokeExact(context.address(), file);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        });
    }

    static String epInfo(long ep) {
        return printToString(file -> {
            try {
                EpPrintInfo.H.invokeExact(ep, file);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        });
    }

    /**
     * Whether this UCX can abort the whole process when a peer fails while an endpoint to it is
     * being wired up: releases up to 1.13 (Debian 12's) do now and then (assertions in
     * ucp_wireup_ep_pending_queue_purge, wireup_ep.c "pending_count == 0"; a SIGSEGV in
     * uct_md_mem_dereg after "connect ... failed: Connection refused"). With endpoints made at first
     * use, a first operation to a PE that has just died is such a wire-up.
     */
    static boolean abortsOnPeerLossInWireUp() {
        return abortsOnPeerLossInWireUp(version());
    }

    /** {@link #abortsOnPeerLossInWireUp()} of UCX release {@code version} ("1.13.1"). */
    static boolean abortsOnPeerLossInWireUp(String version) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)\\.(\\d+)").matcher(version);
        return m.find() && (Integer.parseInt(m.group(1)) < 1
                || Integer.parseInt(m.group(1)) == 1 && Integer.parseInt(m.group(2)) <= 13);
    }

    static String version() {
        try {
            long s = (long) GetVersionString.H.invokeExact();
            return MemorySegment.ofAddress(s).reinterpret(256).getString(0, StandardCharsets.UTF_8);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte workerCreate(MemorySegment context, MemorySegment params, MemorySegment workerOut) {
        try {
            return (byte) WorkerCreate.H.invokeExact(context.address(), params.address(), workerOut.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void workerDestroy(MemorySegment worker) {
        try {
            WorkerDestroy.H.invokeExact(worker.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte workerGetAddress(MemorySegment worker, MemorySegment addressOut, MemorySegment lengthOut) {
        try {
            return (byte) WorkerGetAddress.H.invokeExact(worker.address(), addressOut.address(), lengthOut.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void workerReleaseAddress(MemorySegment worker, MemorySegment address) {
        try {
            WorkerReleaseAddress.H.invokeExact(worker.address(), address.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte workerGetEfd(MemorySegment worker, MemorySegment fdOut) {
        try {
            return (byte) WorkerGetEfd.H.invokeExact(worker.address(), fdOut.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte workerArm(long worker) {
        try {
            return (byte) WorkerArm.H.invokeExact(worker);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte workerSignal(long worker) {
        try {
            return (byte) WorkerSignal.H.invokeExact(worker);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte epCreate(MemorySegment worker, MemorySegment params, MemorySegment epOut) {
        try {
            return (byte) EpCreate.H.invokeExact(worker.address(), params.address(), epOut.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long epCloseNbx(long ep, MemorySegment param) {
        try {
            return (long) EpCloseNbx.H.invokeExact(ep, param.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte memMap(MemorySegment context, MemorySegment params, MemorySegment memhOut) {
        try {
            return (byte) MemMap.H.invokeExact(context.address(), params.address(), memhOut.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte memUnmap(MemorySegment context, MemorySegment memh) {
        try {
            return (byte) MemUnmap.H.invokeExact(context.address(), memh.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte rkeyPack(MemorySegment context, MemorySegment memh, MemorySegment bufferOut, MemorySegment sizeOut) {
        try {
            return (byte) RkeyPack.H.invokeExact(context.address(), memh.address(), bufferOut.address(), sizeOut.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void rkeyBufferRelease(MemorySegment buffer) {
        try {
            RkeyBufferRelease.H.invokeExact(buffer.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte epRkeyUnpack(long ep, MemorySegment buffer, MemorySegment rkeyOut) {
        try {
            return (byte) EpRkeyUnpack.H.invokeExact(ep, buffer.address(), rkeyOut.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void rkeyDestroy(long rkey) {
        try {
            RkeyDestroy.H.invokeExact(rkey);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ------------------------------------------------------------------ wrappers: hot paths

    static int progress(long worker) {
        try {
            return (int) WorkerProgress.H.invokeExact(worker);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte fence(long worker) {
        try {
            return (byte) WorkerFence.H.invokeExact(worker);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long epFlushNbx(long ep, MemorySegment param) {
        try {
            return (long) EpFlushNbx.H.invokeExact(ep, param.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long putNbx(long ep, long buffer, long count, long remoteAddr, long rkey, MemorySegment param) {
        try {
            return (long) PutNbx.H.invokeExact(ep, buffer, count, remoteAddr, rkey, param.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long getNbx(long ep, long buffer, long count, long remoteAddr, long rkey, MemorySegment param) {
        try {
            return (long) GetNbx.H.invokeExact(ep, buffer, count, remoteAddr, rkey, param.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long atomicOpNbx(long ep, int opcode, long buffer, long remoteAddr, long rkey, MemorySegment param) {
        try {
            return (long) AtomicOpNbx.H.invokeExact(ep, opcode, buffer, 1L, remoteAddr, rkey, param.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code ucp_am_send_nbx(ep, id, header, headerLength, buffer, count, param)}. */
    static long amSendNbx(long ep, int id, long header, long headerLength, long buffer, long count, MemorySegment param) {
        try {
            return (long) AmSendNbx.H.invokeExact(ep, id, header, headerLength, buffer, count, param.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte workerSetAmRecvHandler(long worker, MemorySegment param) {
        try {
            return (byte) WorkerSetAmRecvHandler.H.invokeExact(worker, param.address());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static byte requestCheckStatus(long request) {
        try {
            return (byte) RequestCheckStatus.H.invokeExact(request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void requestFree(long request) {
        try {
            RequestFree.H.invokeExact(request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void requestCancel(long worker, long request) {
        try {
            RequestCancel.H.invokeExact(worker, request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }
}
