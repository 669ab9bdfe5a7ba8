package io.kubeloop.client.config;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Presents a client certificate that is asked for at each handshake, so that credentials which
 * rotate (an exec plugin's) are picked up by new connections without rebuilding the
 * {@link javax.net.ssl.SSLContext}. A fixed certificate is the special case of a constant source.
 *
 * <p>The certificate is offered whatever CA names the server lists (as client-go does) but only
 * when its key type is among those the handshake accepts. If the source fails, no certificate is
 * offered; the same failure then surfaces, with its message, from the {@link AuthProvider}.
 *
 * <p>Each distinct credential gets a fresh alias; the previous one stays resolvable so that a
 * handshake that chose an alias just before a rotation still finds its key. Thread-safe.
 */
final class ClientCertificateKeyManager extends X509ExtendedKeyManager {

    private record Slot(String alias, ClientCredentials credentials) {}

    private final Supplier<Optional<ClientCredentials>> source;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}; {@code previous} is the slot {@code current} replaced. */
    @GuardedBy("lock")
    private Slot current;

    private Slot previous;
    private long generation;

    ClientCertificateKeyManager(Supplier<Optional<ClientCredentials>> source) {
        this.source = source;
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return choose(keyTypes);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return choose(keyTypes);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        String alias = choose(new String[] {keyType});
        return alias == null ? null : new String[] {alias};
    }

    private String choose(String[] keyTypes) {
        Optional<ClientCredentials> credentials;
        try {
            credentials = source.get();
        } catch (RuntimeException e) {
            return null;
        }
        if (credentials.isEmpty()
                || !Arrays.asList(keyTypes)
                        .contains(credentials.get().privateKey().getAlgorithm())) {
            return null;
        }
        lock.lock();
        try {
            if (current == null || current.credentials != credentials.get()) {
                previous = current;
                current = new Slot("kubeloop-client-" + ++generation, credentials.get());
            }
            return current.alias;
        } finally {
            lock.unlock();
        }
    }

    private ClientCredentials lookup(String alias) {
        lock.lock();
        try {
            if (current != null && current.alias.equals(alias)) {
                return current.credentials;
            }
            if (previous != null && previous.alias.equals(alias)) {
                return previous.credentials;
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        ClientCredentials credentials = lookup(alias);
        return credentials == null ? null : credentials.certificateChain().toArray(X509Certificate[]::new);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        ClientCredentials credentials = lookup(alias);
        return credentials == null ? null : credentials.privateKey();
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return null;
    }
}
