# syntax=docker/dockerfile:1
#
# The dossier image: the release binary on Debian slim, with what the manifests in jobs/
# run beside it. Build from the repository root (jobs/README.md has the commands):
#   docker build -t REGISTRY/dossier:TAG .
# BuildKit is required (cache mounts, COPY --chmod); it is the default builder in Docker 23+.

# Rust toolchain of the build; the crate's rust-version is 1.94.
ARG RUST_VERSION=1.95
# One Debian release for build and runtime, so the binary's glibc is the one it runs on.
ARG DEBIAN_RELEASE=bookworm
# kubectl for the nightly CronJob; keep it within one minor version of the cluster.
ARG KUBECTL_VERSION=v1.37.0

# The official kubectl image (multi-arch, a static binary at /bin/kubectl).
FROM registry.k8s.io/kubectl:${KUBECTL_VERSION} AS kubectl

# Build stage. It runs on the build machine's own platform and cross-compiles for the
# target one, so a multi-arch build compiles at native speed instead of under emulation.
FROM --platform=$BUILDPLATFORM rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE} AS build
ARG BUILDARCH
ARG TARGETARCH
ARG TARGETPLATFORM
WORKDIR /usr/src/dossier

# The Rust target of the image's platform, and for a foreign one the Debian cross C
# toolchain (ring, zstd, lzma, blake3 and psm compile C) and that target's standard library.
# The choice is written to /cross.env for the build step to source. Debian's packages
# follow the release's security updates, so they are not pinned to versions.
# hadolint ignore=DL3008
RUN set -eu; \
    case "$TARGETARCH" in \
      amd64) triple=x86_64-unknown-linux-gnu; upper=X86_64_UNKNOWN_LINUX_GNU; cc=x86_64_unknown_linux_gnu; \
             tools=x86_64-linux-gnu; pkg=x86-64-linux-gnu; deb=amd64 ;; \
      arm64) triple=aarch64-unknown-linux-gnu; upper=AARCH64_UNKNOWN_LINUX_GNU; cc=aarch64_unknown_linux_gnu; \
             tools=aarch64-linux-gnu; pkg=aarch64-linux-gnu; deb=arm64 ;; \
      *) echo "no build for TARGETARCH=$TARGETARCH (amd64 and arm64 only)" >&2; exit 1 ;; \
    esac; \
    echo "TRIPLE=$triple" > /cross.env; \
    if [ "$TARGETARCH" != "$BUILDARCH" ]; then \
      apt-get update; \
      apt-get install -y --no-install-recommends "gcc-$pkg" "libc6-dev-$deb-cross"; \
      rm -rf /var/lib/apt/lists/*; \
      rustup target add "$triple"; \
      echo "export CARGO_TARGET_${upper}_LINKER=$tools-gcc CC_$cc=$tools-gcc AR_$cc=$tools-ar" >> /cross.env; \
    fi

# Strip symbols at link time (works with the cross linker too), whatever Cargo.toml's
# release profile says; the profile is otherwise the one in Cargo.toml.
ENV CARGO_PROFILE_RELEASE_STRIP=symbols

COPY . .
# The crates.io registry, git checkouts and target/ persist in BuildKit cache mounts
# (one set per target platform), so a source change recompiles the dossier crate only.
# target/ is a cache mount, so the binary is copied out to /out in the same step.
RUN --mount=type=cache,id=dossier-cargo-registry-$TARGETPLATFORM,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,id=dossier-cargo-git-$TARGETPLATFORM,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,id=dossier-target-$TARGETPLATFORM,target=/usr/src/dossier/target,sharing=locked \
    set -eu; \
    . /cross.env; \
    cargo build --locked --release --target "$TRIPLE" --bin dossier; \
    install -D -m 0755 "target/$TRIPLE/release/dossier" /out/dossier

# Runtime stage. Debian slim, not distroless: both manifests start the container as
# `/bin/sh -c` (the shard Job expands $JOB_COMPLETION_INDEX; the CronJob's script uses
# date, sed and kubectl), and nightly-import.sh is a bash script. Distroless has no shell.
FROM debian:${DEBIAN_RELEASE}-slim AS runtime

# CA roots for rustls (the binary reads the system store; it does not link OpenSSL, though
# Debian's ca-certificates package pulls in the openssl tool). A fixed non-root user, by
# number so that Kubernetes' runAsNonRoot can check it.
# hadolint ignore=DL3008
RUN set -eu; \
    apt-get update; \
    apt-get install -y --no-install-recommends ca-certificates; \
    rm -rf /var/lib/apt/lists/*; \
    groupadd --gid 10001 dossier; \
    useradd --uid 10001 --gid 10001 --no-log-init --create-home --home-dir /home/dossier \
      --shell /bin/sh dossier

COPY --from=kubectl /bin/kubectl /usr/local/bin/kubectl
COPY --from=build /out/dossier /usr/local/bin/dossier
COPY --chmod=0755 jobs/nightly-import.sh /usr/local/bin/nightly-import.sh

USER 10001:10001
# Writable: the default ./lake, `dossier demo`'s lake, the SQL prompt's history, kubectl's cache.
WORKDIR /home/dossier
ENV HOME=/home/dossier

# `dossier serve --addr 0.0.0.0:50051` (the default address is loopback only).
EXPOSE 50051

# Declared last, so a new revision does not invalidate the cached layers above.
ARG SOURCE_URL=""
ARG REVISION=""
LABEL org.opencontainers.image.title="dossier" \
      org.opencontainers.image.description="Drug-asset profiles an analyst can trust cell by cell: frozen source snapshots, grounded claims, precedence as SQL." \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.revision="${REVISION}"

ENTRYPOINT ["dossier"]
CMD ["--help"]
