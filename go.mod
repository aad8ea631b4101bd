module github.com/agui-reducer/agui

go 1.26

require (
	github.com/evanphx/json-patch/v5 v5.9.11
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
