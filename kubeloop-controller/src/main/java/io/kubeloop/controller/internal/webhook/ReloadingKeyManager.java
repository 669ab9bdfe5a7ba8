package io.kubeloop.controller.internal.webhook;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A key manager serving the certificate and key in two PEM files, read again when either file's
 * modification time changes (checked at each TLS handshake), so a renewed certificate (cert-manager,
 * a rotated Secret) is used without a restart. A pair that cannot be read keeps the previous one.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
public final class ReloadingKeyManager extends X509ExtendedKeyManager {

    private static final char[] PASSWORD = "kubeloop".toCharArray();

    private final Path certFile;
    private final Path keyFile;
    private volatile Loaded loaded;

    private record Loaded(FileTime cert, FileTime key, X509ExtendedKeyManager manager) {}

    /**
     * Reads the files once.
     *
     * @throws UncheckedIOException when they cannot be read
     * @throws IllegalArgumentException when they hold no usable certificate and key
     */
    public ReloadingKeyManager(Path certFile, Path keyFile) {
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.loaded = load();
    }

    private Loaded load() {
        try {
            FileTime c = Files.getLastModifiedTime(certFile);
            FileTime k = Files.getLastModifiedTime(keyFile);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(PemKeyMaterial.keyStore(certFile, keyFile, PASSWORD), PASSWORD);
            for (KeyManager m : kmf.getKeyManagers()) {
                if (m instanceof X509ExtendedKeyManager x) {
                    return new Loaded(c, k, x);
                }
            }
            throw new IllegalArgumentException("no X.509 key manager");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(certFile + ", " + keyFile + ": " + e.getMessage(), e);
        }
    }

    private X509ExtendedKeyManager current() {
        Loaded l = loaded;
        try {
            if (!Files.getLastModifiedTime(certFile).equals(l.cert())
                    || !Files.getLastModifiedTime(keyFile).equals(l.key())) {
                l = load();
                loaded = l;
            }
        } catch (RuntimeException | IOException e) {
            // half-written files during a rotation: keep serving the previous pair
        }
        return l.manager();
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return current().getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return current().chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return current().chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return loaded.manager().getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return loaded.manager().getPrivateKey(alias);
    }
}
