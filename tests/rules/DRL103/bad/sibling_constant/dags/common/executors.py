PODS = "Kubernetes"
