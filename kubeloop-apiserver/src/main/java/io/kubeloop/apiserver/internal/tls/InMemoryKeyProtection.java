package io.kubeloop.apiserver.internal.tls;

import java.security.KeyStore;
import java.security.SecureRandom;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEParameterSpec;

/**
 * The protection of a private key in a key store that never leaves memory: PBES2 (HMAC-SHA256, AES-256)
 * with one key-derivation iteration instead of the JDK's default 10,000. The password guards nothing
 * there (whoever reads the heap reads the key), yet the default iterations cost a cold JVM two slow
 * key derivations at every server start — one to store the key, one when the TLS key manager reads it —
 * and keep the JIT compiler busy well after the server is up.
 *
 * <p>Stateless; thread-safe.
 */
final class InMemoryKeyProtection {

    private static final String ALGORITHM = "PBEWithHmacSHA256AndAES_256";

    private InMemoryKeyProtection() {}

    /** The protection of a key entry under {@code password}: a fresh salt and IV, one iteration. */
    static KeyStore.PasswordProtection of(char[] password) {
        SecureRandom random = new SecureRandom();
        byte[] salt = new byte[16];
        byte[] iv = new byte[16];
        random.nextBytes(salt);
        random.nextBytes(iv);
        return new KeyStore.PasswordProtection(
                password, ALGORITHM, new PBEParameterSpec(salt, 1, new IvParameterSpec(iv)));
    }
}
