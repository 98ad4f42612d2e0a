/** Secret redaction applied to the model input and to every stored memory field. */
package dev.mnemo.internal.redact;
