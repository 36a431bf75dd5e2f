# car-graph application image. Neo4j runs in its own container (docker-compose.yml, service neo4j);
# this image only needs Python. Neo4j itself is never copied into the image (GPL: we talk to it).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY . /src
# CPU-only torch: the default Linux wheel drags in several GB of CUDA libraries we never use.
RUN pip install --extra-index-url https://download.pytorch.org/whl/cpu . \
    && useradd --create-home --uid 10001 car

USER car
WORKDIR /home/car
ENTRYPOINT ["car-graph"]
CMD ["--help"]
