#!/bin/sh
# Copies the package baked into the image into n8n's nodes folder (in the n8n_data volume), then
# starts n8n as the official image does.
set -e
nodes="${N8N_USER_FOLDER:-$HOME}/.n8n/nodes/node_modules"
mkdir -p "$nodes"
rm -rf "$nodes/n8n-nodes-container-tracking"
cp -R /opt/n8n-nodes-container-tracking/package "$nodes/n8n-nodes-container-tracking"
exec /docker-entrypoint.sh "$@"
